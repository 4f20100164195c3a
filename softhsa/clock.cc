// Clocks. ROCR reports dispatch and copy times in the HSA system timestamp
// domain (HSA_SYSTEM_INFO_TIMESTAMP at HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY);
// the packet processor stamps them with the device's own counter, converted
// by hsa_amd_profiling_convert_tick_to_system_domain. Both domains here are
// deliberately unlike CLOCK_BOOTTIME nanoseconds (another rate, another
// epoch), so a tool that takes them for nanoseconds gets visibly wrong times:
//   system: 100 MHz, counting from CLOCK_BOOTTIME + 1000 s
//   device: 25 MHz, counting from CLOCK_BOOTTIME + 17 s
// SOFTHSA_SYSTEM_CLOCK_HZ and SOFTHSA_DEVICE_CLOCK_HZ change the rates.
// SOFTHSA_SYSTEM_CLOCK makes the system domain a host clock's nanoseconds
// (1 GHz, epoch 0; the device clock counts from the same clock + 17 s):
// "rocr" CLOCK_MONOTONIC_RAW, ROCR's own; "monotonic" CLOCK_MONOTONIC, what
// the HIP runtime assumes (ROCclr subtracts host CLOCK_MONOTONIC times from
// system-domain ones in event times, so HIP needs this one: with the default
// domain some hipEventElapsedTime results are 1000 s off, with ROCR's by
// however far NTP has slewed CLOCK_MONOTONIC).
// All of it is read at the first hsa_init.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "softhsa/api.h"
#include "softhsa/runtime.h"

namespace softhsa {
namespace {

constexpr uint64_t kSystemEpochNs = 1000'000'000'000ull;
constexpr uint64_t kDeviceEpochNs = 17'000'000'000ull;

uint64_t RateFromEnv(const char* name, uint64_t fallback) {
  const char* e = getenv(name);
  if (e == nullptr) return fallback;
  char* end = nullptr;
  unsigned long long v = strtoull(e, &end, 10);
  return end != e && *end == '\0' && v >= 1000 && v <= 10'000'000'000ull
             ? v
             : fallback;
}

// Set before any runtime thread starts (hsa_init), read-only after.
uint64_t g_system_hz = 100'000'000;
uint64_t g_device_hz = 25'000'000;
uint64_t g_system_epoch_ns = kSystemEpochNs;
clockid_t g_base_clock = CLOCK_BOOTTIME;

// The clock both domains count from.
uint64_t BaseNs() {
  timespec ts;
  clock_gettime(g_base_clock, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
}

uint64_t Scale(uint64_t v, uint64_t num, uint64_t den) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(v) * num) / den);
}

}  // namespace

void ReadClockSettings() {
  const char* env = getenv("SOFTHSA_SYSTEM_CLOCK");
  const std::string mode = env ? env : "";
  const bool host = mode == "rocr" || mode == "monotonic";
  if (!mode.empty() && !host) {
    fprintf(stderr,
            "softhsa: SOFTHSA_SYSTEM_CLOCK=%s ignored (rocr, monotonic)\n",
            mode.c_str());
  }
  g_base_clock = mode == "rocr"        ? CLOCK_MONOTONIC_RAW
                 : mode == "monotonic" ? CLOCK_MONOTONIC
                                       : CLOCK_BOOTTIME;
  g_system_epoch_ns = host ? 0 : kSystemEpochNs;
  g_system_hz = RateFromEnv("SOFTHSA_SYSTEM_CLOCK_HZ",
                            host ? 1'000'000'000 : 100'000'000);
  g_device_hz = RateFromEnv("SOFTHSA_DEVICE_CLOCK_HZ", 25'000'000);
}

uint64_t SystemFrequency() { return g_system_hz; }
uint64_t DeviceFrequency() { return g_device_hz; }
uint64_t NsToSystemTicks(uint64_t ns) {
  return Scale(ns, g_system_hz, 1'000'000'000ull);
}
uint64_t SystemTicks() { return NsToSystemTicks(BaseNs() + g_system_epoch_ns); }
uint64_t DeviceTicks() {
  return Scale(BaseNs() + kDeviceEpochNs, g_device_hz, 1'000'000'000ull);
}
uint64_t DeviceToSystem(uint64_t device_ticks) {
  // Back to the common nanosecond timeline, then into the system domain.
  uint64_t ns = Scale(device_ticks, 1'000'000'000ull, g_device_hz);
  return NsToSystemTicks(ns - kDeviceEpochNs + g_system_epoch_ns);
}

namespace api {

hsa_status_t hsa_amd_profiling_convert_tick_to_system_domain(
    hsa_agent_t agent, uint64_t agent_tick, uint64_t* system_tick) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr || a->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  if (system_tick == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *system_tick = DeviceToSystem(agent_tick);
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
