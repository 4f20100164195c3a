// A tool compiled against HIP's own hip/amd_detail/hip_prof_str.h keeps a
// counter per API in an array of HIP_API_ID_LAST + 1 entries, indexed by the
// cid the tracer delivers, as profilers do. Enabling the whole HIP_API domain
// (callbacks and activity) must never deliver a larger cid, also for the APIs
// that header leaves unnumbered (this library numbers them after its last
// ID); one of those enabled by its ID (found by name) is delivered. Prints
// "FAIL ..." lines and exits 1 on any violation.
#include <hip/hip_runtime_api.h>
// HIP's record needs HIP's API header before it.
#include <hip/amd_detail/hip_prof_str.h>
#include <roctracer.h>

#include <cstdio>
#include <cstring>

namespace {

int g_failures = 0;
unsigned g_callbacks[HIP_API_ID_LAST + 1];
unsigned g_records[HIP_API_ID_LAST + 1];
unsigned g_by_id = 0;  // callbacks of the op enabled by its ID
uint32_t g_extra_op = 0;

#define EXPECT(cond)                                      \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond); \
      ++g_failures;                                       \
    }                                                     \
  } while (0)

void Callback(uint32_t domain, uint32_t cid, const void*, void*) {
  if (domain != ACTIVITY_DOMAIN_HIP_API) return;
  if (cid == g_extra_op && g_extra_op > HIP_API_ID_LAST) {
    ++g_by_id;
    return;
  }
  if (cid > HIP_API_ID_LAST) {
    std::printf("FAIL callback cid %u > HIP_API_ID_LAST %d (%s)\n", cid,
                HIP_API_ID_LAST,
                roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, cid, 0));
    ++g_failures;
    return;
  }
  ++g_callbacks[cid];
}

void Records(const char* begin, const char* end, void*) {
  const auto* r = reinterpret_cast<const roctracer_record_t*>(begin);
  const auto* last = reinterpret_cast<const roctracer_record_t*>(end);
  for (; r < last; ++r) {
    if (r->domain != ACTIVITY_DOMAIN_HIP_API) continue;
    if (r->op > HIP_API_ID_LAST) {
      std::printf("FAIL record op %u > HIP_API_ID_LAST %d (%s)\n", r->op,
                  HIP_API_ID_LAST,
                  roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, r->op, 0));
      ++g_failures;
      continue;
    }
    ++g_records[r->op];
  }
}

// APIs HIP 5.2's record leaves unnumbered, and numbered ones, all answering
// without a GPU.
void Calls() {
  int version = 0;
  (void)hipDriverGetVersion(&version);
  (void)hipRuntimeGetVersion(&version);
  (void)hipGetErrorName(hipErrorInvalidValue);
  (void)hipGetErrorString(hipSuccess);
  int count = 0;
  (void)hipGetDeviceCount(&count);
}

}  // namespace

int main() {
  roctracer_properties_t properties{};
  properties.buffer_size = 0x10000;
  properties.buffer_callback_fun = Records;
  EXPECT(roctracer_open_pool(&properties) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HIP_API, Callback,
                                          nullptr) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HIP_API) ==
         ROCTRACER_STATUS_SUCCESS);
  Calls();
  EXPECT(roctracer_flush_activity() == ROCTRACER_STATUS_SUCCESS);
  EXPECT(g_callbacks[HIP_API_ID_hipGetErrorString] == 2);  // ENTER, EXIT
  EXPECT(g_records[HIP_API_ID_hipGetErrorString] == 1);

  // Every domain at once: the same bound.
  EXPECT(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HIP_API) ==
         ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_API) ==
         ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_enable_callback(Callback, nullptr) ==
         ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_enable_activity() == ROCTRACER_STATUS_SUCCESS);
  Calls();
  EXPECT(roctracer_flush_activity() == ROCTRACER_STATUS_SUCCESS);
  EXPECT(g_callbacks[HIP_API_ID_hipGetErrorString] == 4);
  EXPECT(g_records[HIP_API_ID_hipGetErrorString] == 2);

  // An API numbered here but not by this HIP: delivered when asked for by ID.
  uint32_t op = 0;
  if (roctracer_op_code(ACTIVITY_DOMAIN_HIP_API, "hipDriverGetVersion", &op,
                        nullptr) == ROCTRACER_STATUS_SUCCESS &&
      op > HIP_API_ID_LAST) {
    g_extra_op = op;
    EXPECT(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HIP_API, op, Callback,
                                        nullptr) == ROCTRACER_STATUS_SUCCESS);
    int version = 0;
    (void)hipDriverGetVersion(&version);
    EXPECT(g_by_id == 2);
    std::printf("hipDriverGetVersion is op %u, after HIP_API_ID_LAST %d\n", op,
                HIP_API_ID_LAST);
  }
  roctracer_disable_callback();
  roctracer_disable_activity();
  roctracer_close_pool();
  std::printf("hip_id_range_client: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
