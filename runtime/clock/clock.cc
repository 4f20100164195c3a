#include "runtime/clock/clock.h"

#include <pthread.h>
#include <strings.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/clock/tsc_map.h"

namespace roctracer::clock {
namespace detail {

// Odd until a map is published. Hidden: the inline reader in clock.h must
// reach it without a GOT indirection from inside libroctracer64.so.
__attribute__((visibility("hidden")))
FastClock g_fast_clock{{1}, {}, {}, {}, {}};

}  // namespace detail

namespace {

using detail::g_fast_clock;

enum Mode : uint32_t {
  kBoottime,     // clock_gettime only
  kCalibrating,  // clock_gettime until the first map is fitted
  kTsc,          // a map is published (it may be being re-fitted)
};

std::atomic<uint32_t> g_mode{kBoottime};
std::atomic<uint64_t> g_calibration_start_ns{0};

// The thread that wins this flag feeds the fitter and publishes; the fitter
// is only touched by that thread.
std::atomic<bool> g_refitting{false};
// TSC when the current holder of g_refitting took it: readers stop waiting
// for a re-fit that has taken this long (its thread was preempted).
std::atomic<uint64_t> g_refit_started_tsc{0};
constexpr uint64_t kRefitWaitNs = 5'000;
TscFitter g_fitter;

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

// The published map as one consistent snapshot; false when none is or a
// writer is mid-update.
bool TryReadPublished(TscMap* map) noexcept {
  const uint32_t seq = g_fast_clock.seq.load(std::memory_order_acquire);
  if ((seq & 1) != 0) return false;
  *map = TscMap{g_fast_clock.base_tsc.load(std::memory_order_acquire),
                g_fast_clock.base_ns.load(std::memory_order_acquire),
                g_fast_clock.mult.load(std::memory_order_acquire),
                g_fast_clock.span.load(std::memory_order_acquire)};
  return g_fast_clock.seq.load(std::memory_order_relaxed) == seq;
}

// The same, waiting out a writer mid-update (it holds `seq` odd for a few
// stores only), up to a bound in case it was preempted there.
bool ReadPublished(TscMap* map) noexcept {
  for (int i = 0; i < 64; ++i) {
    if (TryReadPublished(map)) return true;
    if (g_mode.load(std::memory_order_acquire) != kTsc) return false;
    _mm_pause();
  }
  return false;
}

// A reading from `map` if `tsc` is inside its span (or a little before its
// base: a reading taken just before the map was published).
bool InSpan(const TscMap& map, uint64_t tsc, uint64_t* ns) noexcept {
  const uint64_t distance =
      tsc >= map.base_tsc ? tsc - map.base_tsc : map.base_tsc - tsc;
  if (distance >= map.span) return false;
  *ns = MapTsc(map, tsc);
  return true;
}

// Called with g_refitting held: feeds a fresh anchor to the fitter, publishes
// the new map and returns a reading from it.
uint64_t Refit() noexcept {
  TscMap current;
  const bool have_current =
      g_mode.load(std::memory_order_acquire) == kTsc && ReadPublished(&current);
  // The decision to re-fit may be stale (this thread was delayed and another
  // one re-fitted meanwhile): a map that still covers now stays.
  uint64_t ns;
  if (have_current && InSpan(current, __rdtsc(), &ns)) return ns;
  const TscAnchor anchor = ReadAnchor();
  TscMap next;
  bool reset = false;
  // The new map starts now, not at the anchor: had this thread been
  // preempted since, readers went on with the old map meanwhile.
  const uint64_t start_tsc = __rdtsc();
  if (g_fitter.Feed(anchor, have_current ? &current : nullptr, start_tsc, &next,
                    &reset)) {
    Publish(next);
    g_mode.store(kTsc, std::memory_order_release);
    return MapTsc(next, __rdtsc());
  }
  if (reset) {  // the TSC went backwards: back to clock_gettime, start over
    Withdraw();
    StartCalibration(anchor);
  } else if (!g_fitter.calibrated()) {  // the next calibration interval
    g_calibration_start_ns.store(g_fitter.interval_start_ns(),
                                 std::memory_order_relaxed);
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
    if (choice != nullptr && strcasecmp(choice, "boottime") == 0) return;
    if (!ClocksourceIsTsc()) return;
    pthread_atfork(nullptr, nullptr, &ForgetRefitInChild);
    g_refitting.store(true, std::memory_order_relaxed);
    StartCalibration(ReadAnchor());
    g_refitting.store(false, std::memory_order_release);
  }
} g_start_tsc_clock;

#endif  // __x86_64__

}  // namespace

namespace detail {

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
  uint64_t ns;
  if (published && InSpan(map, __rdtsc(), &ns)) return ns;  // raced a publish
  if (!g_refitting.load(std::memory_order_relaxed) &&
      !g_refitting.exchange(true, std::memory_order_acquire)) {
    g_refit_started_tsc.store(__rdtsc(), std::memory_order_relaxed);
    ns = Refit();
    g_refitting.store(false, std::memory_order_release);
    return ns;
  }
  if (!published) return BoottimeNs();  // still calibrating
  // Another thread is re-fitting (it takes a few hundred ns): wait for its
  // map, unless it has been at it for longer (preempted). Then read the
  // kernel, but never below what the current map has given: the new map will
  // start at neither (tsc_map.h), so readings do not go backwards beyond the
  // anchors' uncertainty.
  const uint64_t wait_ticks = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(kRefitWaitNs) << 32) / map.mult);
  uint64_t started = g_refit_started_tsc.load(std::memory_order_relaxed);
  // Older than the map: the re-fit that made it, so this one's start is not
  // stored yet and it has only just begun.
  if (started < map.base_tsc) started = __rdtsc();
  while (g_refitting.load(std::memory_order_acquire) &&
         __rdtsc() - started < wait_ticks) {
    _mm_pause();
  }
  TscMap next;
  if (TryReadPublished(&next) && next.base_tsc != map.base_tsc &&
      InSpan(next, __rdtsc(), &ns)) {
    return ns;
  }
  const uint64_t end = MapEnd(map);
  ns = BoottimeNs();
  return ns > end ? ns : end;
#else
  return BoottimeNs();
#endif
}

}  // namespace detail

const char* ActiveClockName() noexcept {
#if defined(__x86_64__)
  if (g_mode.load(std::memory_order_acquire) == kTsc) return "tsc";
#endif
  return "boottime";
}

}  // namespace roctracer::clock
