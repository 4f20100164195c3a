#include "runtime/clock.h"

#include <pthread.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/tsc_map.h"

namespace roctracer {
namespace clock_internal {

// Odd until a map is published. Hidden: the inline reader in clock.h must
// reach it without a GOT indirection from inside libroctracer64.so.
__attribute__((visibility("hidden"))) FastClock g_fast_clock{{1}, {}, {}, {},
                                                             {}};

}  // namespace clock_internal

namespace {

using clock_internal::g_fast_clock;

enum Mode : uint32_t {
  kBoottime,     // clock_gettime only
  kCalibrating,  // clock_gettime until the first map is fitted
  kTsc,          // a map is published (it may be being re-fitted)
};

std::atomic<uint32_t> g_mode{kBoottime};
std::atomic<uint64_t> g_calibration_start_ns{0};

// The thread that wins this flag feeds the fitter and publishes; everything
// below it is only touched by that thread.
std::atomic<bool> g_refitting{false};
TscFitter g_fitter;
TscMap g_map{0, 0, 0, 0};

uint64_t BoottimeNs() noexcept {
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(ts.tv_nsec);
}

#if defined(__x86_64__)

// A TSC reading paired with a clock_gettime reading: of a few tries, the one
// whose surrounding TSC readings are closest (the least disturbed), with the
// TSC taken at the midpoint. Fenced: here ordering matters, cost does not.
TscAnchor ReadAnchor() noexcept {
  TscAnchor best{0, 0};
  uint64_t best_width = ~uint64_t{0};
  for (int i = 0; i < 4; ++i) {
    _mm_lfence();
    const uint64_t before = __rdtsc();
    _mm_lfence();
    const uint64_t ns = BoottimeNs();
    _mm_lfence();
    const uint64_t after = __rdtsc();
    if (after >= before && after - before < best_width) {
      best_width = after - before;
      best = TscAnchor{before + best_width / 2, ns};
    }
  }
  if (best.ns == 0) best = TscAnchor{__rdtsc(), BoottimeNs()};
  return best;
}

void Publish(const TscMap& map) noexcept {
  const uint32_t seq = g_fast_clock.seq.load(std::memory_order_relaxed) | 1u;
  g_fast_clock.seq.store(seq, std::memory_order_relaxed);
  g_fast_clock.base_tsc.store(map.base_tsc, std::memory_order_release);
  g_fast_clock.base_ns.store(map.base_ns, std::memory_order_release);
  g_fast_clock.mult.store(map.mult, std::memory_order_release);
  g_fast_clock.span.store(map.span, std::memory_order_release);
  g_fast_clock.seq.store(seq + 1, std::memory_order_release);
}

void Withdraw() noexcept {
  g_fast_clock.seq.fetch_or(1u, std::memory_order_relaxed);
}

// Requires g_refitting.
void StartCalibration(const TscAnchor& first) noexcept {
  g_fitter.Start(first);
  g_calibration_start_ns.store(first.ns, std::memory_order_relaxed);
  g_mode.store(kCalibrating, std::memory_order_release);
}

// The published map as one consistent snapshot; false when none is (or a
// writer stalled mid-update).
bool ReadPublished(TscMap* map) noexcept {
  for (int i = 0; i < 1000; ++i) {
    const uint32_t seq = g_fast_clock.seq.load(std::memory_order_acquire);
    if ((seq & 1) == 0) {
      *map = TscMap{g_fast_clock.base_tsc.load(std::memory_order_acquire),
                    g_fast_clock.base_ns.load(std::memory_order_acquire),
                    g_fast_clock.mult.load(std::memory_order_acquire),
                    g_fast_clock.span.load(std::memory_order_acquire)};
      if (g_fast_clock.seq.load(std::memory_order_relaxed) == seq) return true;
    }
    if (g_mode.load(std::memory_order_acquire) != kTsc) return false;
    _mm_pause();
  }
  return false;
}

// Called with g_refitting held: feeds a fresh anchor to the fitter and returns
// the reading for this call, continuous with the map readers used so far.
uint64_t Refit() noexcept {
  const TscAnchor anchor = ReadAnchor();
  TscMap next;
  bool reset = false;
  if (g_fitter.Feed(anchor, g_map, &next, &reset)) {
    g_map = next;
    Publish(next);
    g_mode.store(kTsc, std::memory_order_release);
    return MapTsc(next, anchor.tsc);
  }
  if (reset) {  // the TSC went backwards: back to clock_gettime, start over
    Withdraw();
    StartCalibration(anchor);
  }
  return anchor.ns;
}

bool ClocksourceIsTsc() noexcept {
  FILE* f = std::fopen(
      "/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
  if (f == nullptr) return false;
  char name[32] = {};
  const bool ok = std::fgets(name, sizeof(name), f) != nullptr;
  std::fclose(f);
  return ok && std::strcmp(name, "tsc\n") == 0;
}

void ForgetRefitInChild() {
  // The thread that held it does not exist in the child.
  g_refitting.store(false, std::memory_order_relaxed);
}

struct StartTscClock {
  StartTscClock() {
    const char* choice = std::getenv("ROCTRACER_CLOCK");
    if (choice != nullptr && std::strcmp(choice, "boottime") == 0) return;
    if (!ClocksourceIsTsc()) return;
    pthread_atfork(nullptr, nullptr, &ForgetRefitInChild);
    g_refitting.store(true, std::memory_order_relaxed);
    StartCalibration(ReadAnchor());
    g_refitting.store(false, std::memory_order_release);
  }
} g_start_tsc_clock;

#endif  // __x86_64__

}  // namespace

namespace clock_internal {

uint64_t TimestampNsSlow() noexcept {
#if defined(__x86_64__)
  const uint32_t mode = g_mode.load(std::memory_order_acquire);
  if (mode == kCalibrating) {
    const uint64_t ns = BoottimeNs();
    if (ns - g_calibration_start_ns.load(std::memory_order_relaxed) <
        TscFitter::kCalibrationNs) {
      return ns;
    }
  } else if (mode != kTsc) {
    return BoottimeNs();
  }
  TscMap map;
  const bool published = mode == kTsc && ReadPublished(&map);
  if (published) {
    // Read after the map: a reading of another thread that published a new
    // map can be a little before its base.
    const uint64_t tsc = __rdtsc();
    const uint64_t distance =
        tsc >= map.base_tsc ? tsc - map.base_tsc : map.base_tsc - tsc;
    if (distance < map.span) return MapTsc(map, tsc);
  }
  if (!g_refitting.load(std::memory_order_relaxed) &&
      !g_refitting.exchange(true, std::memory_order_acquire)) {
    const uint64_t ns = Refit();
    g_refitting.store(false, std::memory_order_release);
    return ns;
  }
  // Another thread is re-fitting: the map it replaces is still good for a
  // little longer than its span.
  if (published) return MapTsc(map, __rdtsc());
#endif
  return BoottimeNs();
}

}  // namespace clock_internal

const char* ActiveClockName() noexcept {
#if defined(__x86_64__)
  if (g_mode.load(std::memory_order_acquire) == kTsc) return "tsc";
#endif
  return "boottime";
}

}  // namespace roctracer
