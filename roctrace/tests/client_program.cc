// A program that is a roctracer client itself, as a profiler linked into an
// application is (PyTorch's Kineto): it opens the default pool, enables HIP
// activity and callbacks, stops and restarts tracing, then disables
// everything and closes its pool. roctrace's tests run it under roctrace:
// both must get their records.
//
//   client_program N OUT   phase A: N hipGetErrorString + roctxMark("a")
//                          (program tracing on); phase B: N calls after
//                          roctracer_stop; phase C: N calls after
//                          roctracer_start; phase D: N calls +
//                          roctxMark("d") after the program closed its
//                          pool. Writes to OUT one line
//                          "records R callbacks C" and then the
//                          correlation ID of every hipGetErrorString
//                          record the program received, one per line.
//                          Its HIP callback marks roctxMark("callback")
//                          once, from inside the callback.
#include <hip/hip_runtime_api.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hip.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace {

std::mutex g_mutex;
std::vector<uint64_t> g_record_ids;
long g_callbacks = 0;

#define CHECK(call)                                                      \
  do {                                                                   \
    if ((call) != ROCTRACER_STATUS_SUCCESS) {                            \
      std::fprintf(stderr, "%s: %s\n", #call, roctracer_error_string()); \
      std::exit(70);                                                     \
    }                                                                    \
  } while (0)

void Calls(long n) {
  for (long i = 0; i < n; ++i) {
    if (hipGetErrorString(hipSuccess) == nullptr) std::abort();
  }
}

void OnRecords(const char* begin, const char* end, void* /*arg*/) {
  const auto* r = reinterpret_cast<const roctracer_record_t*>(begin);
  const auto* last = reinterpret_cast<const roctracer_record_t*>(end);
  std::lock_guard<std::mutex> lock(g_mutex);
  while (r < last) {
    if (r->domain == ACTIVITY_DOMAIN_HIP_API &&
        r->op == HIP_API_ID_hipGetErrorString) {
      g_record_ids.push_back(r->correlation_id);
    }
    if (roctracer_next_record(r, &r) != ROCTRACER_STATUS_SUCCESS) break;
  }
}

void OnHip(uint32_t /*domain*/, uint32_t cid, const void* data, void* /*arg*/) {
  const auto* d = static_cast<const hip_api_data_t*>(data);
  if (cid == HIP_API_ID_hipGetErrorString &&
      d->phase == ACTIVITY_API_PHASE_ENTER) {
    bool first;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      first = g_callbacks++ == 0;
    }
    // An annotation made inside a callback is the application's too.
    if (first) roctxMark("callback");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 64;
  const long n = std::atol(argv[1]);
  roctracer_properties_t properties{};
  properties.buffer_size = 0x4000;
  properties.buffer_callback_fun = OnRecords;
  CHECK(roctracer_open_pool(&properties));
  CHECK(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HIP_API, OnHip,
                                         nullptr));
  CHECK(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HIP_API));
  // A domain-wide enable stops at HIP's last numbered API; the call this
  // program makes is past it where HIP leaves it unnumbered (HIP 7), so it
  // is enabled by its ID as well, as such a client must.
  CHECK(roctracer_enable_op_callback(
      ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString, OnHip, nullptr));
  CHECK(roctracer_enable_op_activity(ACTIVITY_DOMAIN_HIP_API,
                                     HIP_API_ID_hipGetErrorString));
  CHECK(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX));
  CHECK(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_EXT_API));
  roctracer_activity_push_external_correlation_id(7);

  roctxMark("a");
  Calls(n);
  roctracer_stop();
  Calls(n);
  roctracer_start();
  Calls(n);

  activity_correlation_id_t popped = 0;
  roctracer_activity_pop_external_correlation_id(&popped);
  CHECK(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HIP_API));
  CHECK(roctracer_disable_activity());
  CHECK(roctracer_close_pool());  // flushes: every record is in by now
  roctxMark("d");
  Calls(n);

  FILE* out = std::fopen(argv[2], "w");
  if (out == nullptr) return 73;
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fprintf(out, "records %zu callbacks %ld\n", g_record_ids.size(),
               g_callbacks);
  for (uint64_t id : g_record_ids) std::fprintf(out, "%" PRIu64 "\n", id);
  return std::fclose(out) == 0 ? 0 : 74;
}
