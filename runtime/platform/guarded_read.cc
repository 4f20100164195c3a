#include "runtime/platform/guarded_read.h"

#include <signal.h>
#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "runtime/platform/hot_tls.h"

#if defined(__x86_64__)
// One entry per guarded load: where the load is and where to resume when it
// faults, each as an offset from the field itself (no dynamic relocations,
// so the table stays read-only in a shared library). The linker defines the
// bounds of the section; hidden, so that each copy of the tracer in a process
// (a test's static one beside libroctracer64.so) reads its own table.
struct FaultFixup {
  int32_t load;
  int32_t resume;
};
extern "C" const FaultFixup __start_roctracer_fault_fixups[]
    __attribute__((visibility("hidden")));
extern "C" const FaultFixup __stop_roctracer_fault_fixups[]
    __attribute__((visibility("hidden")));
#endif

namespace roctracer::platform {

namespace guarded_read_detail {
std::atomic<int> g_state{0};
ROCTRACER_HOT_TLS uint32_t t_until_check = 0;
}  // namespace guarded_read_detail

using guarded_read_detail::g_state;
using guarded_read_detail::t_until_check;

namespace {

std::atomic<size_t> g_faults{0};

#if defined(__x86_64__)

// The one load that may fault, listed in the table with `faulted` as where
// to resume. Nothing runs between the fault and the resumption, so the
// registers there are those the asm goto's branch expects.
inline bool Load8(uintptr_t address, uint64_t* out) noexcept {
  uint64_t value;
  asm goto(
      "1: movq (%1), %0\n\t"
      ".pushsection roctracer_fault_fixups, \"a\"\n\t"
      ".balign 4\n\t"
      ".long 1b - .\n\t"
      ".long %l[faulted] - .\n\t"
      ".popsection"
      : "=r"(value)
      : "r"(address)
      : "memory"
      : faulted);
  *out = value;
  return true;
faulted:
  return false;
}

uintptr_t Target(const int32_t* field) noexcept {
  return reinterpret_cast<uintptr_t>(field) + static_cast<intptr_t>(*field);
}

// The handlers the tracer's replaced: [0] SIGSEGV, [1] SIGBUS.
struct sigaction g_previous[2];

void Forward(int sig, siginfo_t* info, void* context) {
  const struct sigaction& previous = g_previous[sig == SIGBUS ? 1 : 0];
  if ((previous.sa_flags & SA_SIGINFO) != 0 &&
      previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(sig, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
    return;
  }
  const bool sent = info == nullptr || info->si_code <= 0;
  if (previous.sa_handler == SIG_IGN && sent) return;
  // The default action: a fault happens again once this returns, a signal
  // that was sent is sent again (blocked until this handler returns).
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(sig, &fallback, nullptr);
  if (sent) raise(sig);
}

void OnFault(int sig, siginfo_t* info, void* context) {
  // Only a fault the kernel raised (si_code > 0), not one sent by kill().
  if (info != nullptr && info->si_code > 0 && context != nullptr) {
    auto* uc = static_cast<ucontext_t*>(context);
    const auto ip = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    for (const FaultFixup* f = __start_roctracer_fault_fixups;
         f < __stop_roctracer_fault_fixups; ++f) {
      if (Target(&f->load) == ip) {
        uc->uc_mcontext.gregs[REG_RIP] =
            static_cast<greg_t>(Target(&f->resume));
        g_faults.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
  }
  Forward(sig, info, context);
}

bool Ours(int sig) noexcept {
  // Zeroed: a sanitizer that refuses user handlers answers without filling it.
  struct sigaction current {};
  return sigaction(sig, nullptr, &current) == 0 &&
         (current.sa_flags & SA_SIGINFO) != 0 &&
         current.sa_sigaction == &OnFault;
}

bool Install() noexcept {
  const int signals[2] = {SIGSEGV, SIGBUS};
  for (int i = 0; i < 2; ++i) {
    // The previous handler is saved before ours can run.
    if (sigaction(signals[i], nullptr, &g_previous[i]) != 0) return false;
    struct sigaction ours {};
    ours.sa_sigaction = &OnFault;
    // On the alternate stack where the program set one: a stack overflow
    // must still reach the program's handler.
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    if (sigaction(signals[i], &ours, nullptr) != 0) return false;
  }
  return true;
}

constexpr uint32_t kCheckEvery = 1024;

#endif  // __x86_64__

}  // namespace

#if defined(__x86_64__)

bool GuardedReadsStillOn() noexcept {
  if (g_state.load(std::memory_order_acquire) != 1) return false;
  if (Ours(SIGSEGV) && Ours(SIGBUS)) return true;
  g_state.store(2, std::memory_order_release);
  return false;
}

namespace guarded_read_detail {

bool InstallOrCheck() noexcept {
  int state = g_state.load(std::memory_order_acquire);
  if (state == 0) {
    static const bool installed = Install();
    int expected = 0;
    g_state.compare_exchange_strong(expected, installed ? 1 : 2,
                                    std::memory_order_acq_rel);
    state = g_state.load(std::memory_order_acquire);
  }
  if (state != 1) return false;
  t_until_check = kCheckEvery;
  return GuardedReadsStillOn();
}

}  // namespace guarded_read_detail

size_t GuardedStringLength(const char* s, size_t span) noexcept {
  if (span == 0) return 0;
  const auto from = reinterpret_cast<uintptr_t>(s);
  uintptr_t word_at = from & ~uintptr_t{7};
  uint64_t word;
  if (!Load8(word_at, &word)) return kReadFaulted;
  // The bytes before s in its word are made non-zero.
  const unsigned skipped = static_cast<unsigned>(from - word_at);
  if (skipped != 0) word |= (uint64_t{1} << (8 * skipped)) - 1;
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHighs = 0x8080808080808080ull;
  for (;;) {
    // The lowest set bit marks the first zero byte exactly.
    const uint64_t zeros = (word - kOnes) & ~word & kHighs;
    if (zeros != 0) {
      const size_t n =
          word_at + static_cast<size_t>(__builtin_ctzll(zeros) / 8) - from;
      return n < span ? n : span;
    }
    word_at += 8;
    if (word_at - from >= span) return span;
    if (!Load8(word_at, &word)) return kReadFaulted;
  }
}

bool GuardedCopy(void* dst, const void* src, size_t n) noexcept {
  auto* out = static_cast<char*>(dst);
  const auto from = reinterpret_cast<uintptr_t>(src);
  uint64_t word;
  if (n >= 8) {
    // Whole words inside [src, src + n), the last one overlapping the one
    // before: no load reaches past the end.
    for (size_t at = 0; at + 8 <= n; at += 8) {
      if (!Load8(from + at, &word)) return false;
      std::memcpy(out + at, &word, 8);
    }
    if (n % 8 != 0) {
      if (!Load8(from + n - 8, &word)) return false;
      std::memcpy(out + n - 8, &word, 8);
    }
    return true;
  }
  // Fewer than 8: from the aligned words holding them (in their pages).
  for (size_t at = 0; at < n;) {
    const uintptr_t word_at = (from + at) & ~uintptr_t{7};
    if (!Load8(word_at, &word)) return false;
    const size_t skip = from + at - word_at;
    const size_t take = std::min<size_t>(8 - skip, n - at);
    std::memcpy(out + at, reinterpret_cast<const char*>(&word) + skip, take);
    at += take;
  }
  return true;
}

#else  // !__x86_64__: no guarded reads; the functions read known memory.

bool GuardedReadsStillOn() noexcept { return false; }
namespace guarded_read_detail {
bool InstallOrCheck() noexcept {
  g_state.store(2, std::memory_order_relaxed);
  return false;
}
}  // namespace guarded_read_detail

size_t GuardedStringLength(const char* s, size_t span) noexcept {
  return strnlen(s, span);
}

bool GuardedCopy(void* dst, const void* src, size_t n) noexcept {
  std::memcpy(dst, src, n);
  return true;
}

#endif

size_t GuardedReadFaults() noexcept {
  return g_faults.load(std::memory_order_relaxed);
}

}  // namespace roctracer::platform
