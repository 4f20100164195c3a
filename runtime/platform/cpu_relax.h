// A hint to the CPU inside a spin-wait loop: it may save power and yield the
// core to a sibling hardware thread, and the loop leaves it sooner once the
// awaited value changes (x86's pause, aarch64's yield; nothing elsewhere).
#ifndef RUNTIME_PLATFORM_CPU_RELAX_H_
#define RUNTIME_PLATFORM_CPU_RELAX_H_

namespace roctracer::platform {

inline void CpuRelax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_CPU_RELAX_H_
