// A re-fit started by a stale trigger while the published map still covers
// the present (found by a review). One thread enters the slow path
// while the clock is still calibrating and is held inside its clock_gettime
// (as a preemption there would); meanwhile another thread calibrates, and the
// held thread is released when the published map has < 1 ms of span left.
// Re-fitting then, although nothing expired, used to start a new map at the
// old one's end, up to 1 ms ahead of the kernel, for most of a second.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>

#include "runtime/clock/clock.h"
#include "tests/core/kernel_clock.h"

namespace {

std::atomic<long> g_block_tid{0};
std::atomic<bool> g_blocked{false};
std::atomic<bool> g_release{false};

}  // namespace

extern "C" int clock_gettime(clockid_t id, struct timespec* ts) noexcept {
  using Fn = int (*)(clockid_t, struct timespec*);
  static const Fn real =
      reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "clock_gettime"));
  if (g_block_tid.load() != 0 && syscall(SYS_gettid) == g_block_tid.load()) {
    g_block_tid.store(0);
    g_blocked.store(true);
    while (!g_release.load()) sched_yield();
  }
  return real(id, ts);
}

namespace roctracer::clock {
namespace {

using test::KernelNs;

// TimestampNs() - CLOCK_BOOTTIME, bracketing the reading.
int64_t Error() {
  const int64_t before = static_cast<int64_t>(KernelNs());
  const int64_t t = static_cast<int64_t>(TimestampNs());
  const int64_t after = static_cast<int64_t>(KernelNs());
  if (t < before) return t - before;
  if (t > after) return t - after;
  return 0;
}

TEST(ClockStaleRefit, AStaleRefitInAMapsLastMillisecondRunsAhead) {
  ASSERT_STREQ(ActiveClockName(), "boottime") << "must run first, uncalibrated";
  std::thread held([] {
    g_block_tid.store(syscall(SYS_gettid));
    TimestampNs();  // slow path, mode kCalibrating: held in BoottimeNs
  });
  while (!g_blocked.load()) sched_yield();
  // Calibrates (two 10 ms intervals) and publishes the first map.
  const uint64_t give_up = KernelNs() + 1'000'000'000;
  while (std::strcmp(ActiveClockName(), "tsc") != 0 && KernelNs() < give_up) {
    usleep(1000);
    TimestampNs();
  }
  ASSERT_STREQ(ActiveClockName(), "tsc") << "needs the TSC path";
  using detail::g_fast_clock;
  const uint64_t base = g_fast_clock.base_tsc.load();
  const uint64_t span = g_fast_clock.span.load();
  // 0.7 ms before the map's end (span is 50 ms).
  while (__rdtsc() < base + span - span * 7 / 500) {
  }
  std::printf("error before the stale re-fit: %lld ns\n",
              static_cast<long long>(Error()));
  g_release.store(true);
  held.join();
  // (If the released thread only ran after the span ended, its re-fit was
  // legitimate; either way no reading may run ahead of the kernel.)
  int64_t worst = 0;
  for (int ms = 0; ms <= 1000; ms += 100) {
    const int64_t e = Error();
    std::printf("%3d ms after: TimestampNs - CLOCK_BOOTTIME = %lld ns\n", ms,
                static_cast<long long>(e));
    if (e > worst) worst = e;
    // A busy thread: every expiry is re-fitted at once.
    const uint64_t until = KernelNs() + 100'000'000;
    while (KernelNs() < until) TimestampNs();
  }
  EXPECT_LE(worst, 1000) << "readings ran ahead of CLOCK_BOOTTIME";
}

}  // namespace
}  // namespace roctracer::clock
