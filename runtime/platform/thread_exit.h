// Releasing a thread's tracer state when the thread exits, through a pthread
// key rather than a thread_local destructor: glibc runs key destructors after
// the thread's thread_local destructors, and again when one of those traced a
// call that set the value anew, so tracing from other thread_local
// destructors keeps working. Shared by the pool's per-thread slots, the SDK's
// thread blocks, the string arena and the external-ID stack.
// The destructors are code of this library, which a thread may run after the
// library was dlclose'd: both libraries are linked -z nodelete for that.
#ifndef RUNTIME_PLATFORM_THREAD_EXIT_H_
#define RUNTIME_PLATFORM_THREAD_EXIT_H_

#include <pthread.h>

namespace roctracer::platform {

constexpr pthread_key_t kNoThreadExitKey = static_cast<pthread_key_t>(-1);

// The key whose destructor is `Release`, created on first use (one per
// Release function); kNoThreadExitKey when the process is out of keys.
template <void (*Release)(void*)>
pthread_key_t ThreadExitKey() noexcept {
  static const pthread_key_t key = [] {
    pthread_key_t k;
    return pthread_key_create(&k, Release) == 0 ? k : kNoThreadExitKey;
  }();
  return key;
}

// Has Release(value) run when the calling thread exits, instead of what the
// thread registered for Release before. False when out of keys (the caller
// then keeps the memory for the process's life) or when registering failed.
template <void (*Release)(void*)>
bool ReleaseAtThreadExit(void* value) noexcept {
  const pthread_key_t key = ThreadExitKey<Release>();
  return key != kNoThreadExitKey && pthread_setspecific(key, value) == 0;
}

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_THREAD_EXIT_H_
