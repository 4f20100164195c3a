// Built by install_test.sh against an installed tree with the system g++ and
// its default flags, as a ROCm roctracer client is built (HIP's helpers
// switched on, as ROCm's tools do): it uses every declaration ROCm's
// roctracer_hip.h, roctracer_hsa.h, roctracer_kfd.h and roctracer_plugin.h
// give their clients, on the data of real traced HIP and HSA calls, with
// HIP's own hip/amd_detail/hip_prof_str.h included after ours. Prints
// "header_client: N failures" and exits 0 when there are none.
#define HIP_PROF_HIP_API_STRING 1
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <roctracer_kfd.h>
#include <roctracer_plugin.h>
// After ours: adds nothing, clashes with nothing.
#include <hip/amd_detail/hip_prof_str.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

namespace {

int g_failures = 0;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::fprintf(stderr, "header_client:%d: %s\n", __LINE__, #cond); \
      ++g_failures;                                                    \
    }                                                                  \
  } while (0)

bool Contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}

std::string g_hip_text;  // hipApiString of hipMalloc at EXIT
std::string g_hsa_text;  // hsa_api_data_pair_t of hsa_status_string at EXIT
hip_api_data_t g_hip_data{};

void OnHip(uint32_t, uint32_t cid, const void* data, void*) {
  const auto* d = static_cast<const hip_api_data_t*>(data);
  if (cid != HIP_API_ID_hipMalloc || d->phase != ACTIVITY_API_PHASE_EXIT) {
    return;
  }
  const char* text = hipApiString(static_cast<hip_api_id_t>(cid), d);
  g_hip_text = text;
  std::free(const_cast<char*>(text));
  g_hip_data = *d;
}

void OnHsa(uint32_t, uint32_t cid, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  if (d->phase != ACTIVITY_API_PHASE_EXIT) return;
  std::ostringstream out;
  out << hsa_api_data_pair_t(cid, *d);
  g_hsa_text = out.str();
}

// A plugin is a library that defines these; here the program is one.
int g_plugin_records = 0;

}  // namespace

extern "C" {
ROCTRACER_EXPORT int roctracer_plugin_initialize(uint32_t major,
                                                 uint32_t minor) {
  (void)minor;
  return major == ROCTRACER_VERSION_MAJOR ? 0 : -1;
}
ROCTRACER_EXPORT void roctracer_plugin_finalize(void) {}
ROCTRACER_EXPORT int roctracer_plugin_write_callback_record(
    const roctracer_record_t*, const void* callback_data) {
  g_plugin_records += callback_data != nullptr;
  return 0;
}
ROCTRACER_EXPORT int roctracer_plugin_write_activity_records(
    const roctracer_record_t* begin, const roctracer_record_t* end) {
  g_plugin_records += static_cast<int>(end - begin);
  return 0;
}
}

int main() {
  // hip_prof_str.h's helpers, on this release's numbering.
  EXPECT(std::strcmp(hip_api_name(HIP_API_ID_hipMalloc), "hipMalloc") == 0);
  EXPECT(std::strcmp(hip_api_name(HIP_API_ID_hipMalloc),
                     roctracer_op_string(ACTIVITY_DOMAIN_HIP_API,
                                         HIP_API_ID_hipMalloc, 0)) == 0);
  EXPECT(std::strcmp(hip_api_name(HIP_API_ID_NONE), "unknown") == 0);
  EXPECT(hipApiIdByName("hipMalloc") == HIP_API_ID_hipMalloc);
  EXPECT(hipApiIdByName("noSuchApi") == HIP_API_ID_NONE);
  EXPECT(HIP_PROF_VER >= 1);
  const roctracer_hip_api_cid_t cid = HIP_API_ID_hipFree;
  EXPECT(cid == HIP_API_ID_hipFree);
  EXPECT(HIP_OP_ID_NUMBER == 3 && HIP_OP_ID_COPY == 1);
  hipInitAsyncActivityCallback_t* init_hook = nullptr;
  hipEnableAsyncActivityCallback_t* enable_hook = nullptr;
  hipGetOpName_t* name_hook = nullptr;
  EXPECT(init_hook == nullptr && enable_hook == nullptr &&
         name_hook == nullptr);

  // The stream operators of HIP's and HSA's structs.
  std::ostringstream out;
  out << dim3(4, 5, 6);
  EXPECT(out.str() == "{x=4, y=5, z=6}");
  hsa_agent_t agent{42};
  out.str("");
  out << agent;
  EXPECT(out.str() == "{handle=42}");

  // Real traced calls (failing without a GPU, arguments intact).
  EXPECT(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HIP_API,
                                      HIP_API_ID_hipMalloc, OnHip,
                                      nullptr) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                      HSA_API_ID_hsa_status_string, OnHsa,
                                      nullptr) == ROCTRACER_STATUS_SUCCESS);
  void* p = reinterpret_cast<void*>(0x10);
  (void)hipMalloc(&p, 1234);
  const char* status_text = nullptr;
  (void)hsa_status_string(HSA_STATUS_ERROR_INVALID_ARGUMENT, &status_text);
  roctracer_disable_callback();
  EXPECT(Contains(g_hip_text, "hipMalloc(ptr="));
  EXPECT(Contains(g_hip_text, "size=1234"));
  // HIP's filler, on our data: the out-value the tracer copied.
  hip_api_data_t again = g_hip_data;
  again.args.hipMalloc.ptr__val = reinterpret_cast<void*>(0x99);
  hipApiArgsInit(HIP_API_ID_hipMalloc, &again);
  EXPECT(again.args.hipMalloc.ptr__val == p);
  EXPECT(g_hsa_text.rfind("hsa_status_string(4097, ", 0) == 0);
  EXPECT(Contains(g_hsa_text, ") = 0"));

  // KFD's printer, as HSA's.
  kfd_api_data_t kfd{};
  out.str("");
  out << kfd_api_data_pair_t(KFD_API_ID_hsaKmtOpenKFD, kfd);
  EXPECT(out.str().rfind("hsaKmtOpenKFD() = ", 0) == 0);

  // HSA's op, event and property types of every release's header.
  EXPECT(HSA_OP_ID_NUMBER == 4 && HSA_EVT_ID_NUMBER == 6);
  hsa_evt_data_t evt{};
  evt.codeobj.uri_length = 3;
  EXPECT(evt.codeobj.uri_length == 3);
  hsa_ops_properties_t props{};
  roctracer::hsa_ops_properties_t old_props{};
  EXPECT(props.reserved1[0] == nullptr && old_props.table == nullptr &&
         roctracer::hsa_support::HSA_OP_ID_async_copy == 0);
  EXPECT(roctracer_set_properties(ACTIVITY_DOMAIN_HSA_OPS, &old_props) ==
         ROCTRACER_STATUS_SUCCESS);

  // prof_protocol.h's hook types of every release.
  activity_id_callback_t id_hook = nullptr;
  activity_async_callback_t async_hook = nullptr;
  activity_sync_callback_t sync_hook = nullptr;
  EXPECT(id_hook == nullptr && async_hook == nullptr && sync_hook == nullptr);

  // The plugin interface, as a tool drives a plugin.
  EXPECT(roctracer_plugin_initialize(ROCTRACER_VERSION_MAJOR,
                                     ROCTRACER_VERSION_MINOR) == 0);
  roctracer_record_t records[2] = {};
  EXPECT(roctracer_plugin_write_activity_records(records, records + 2) == 0);
  EXPECT(roctracer_plugin_write_callback_record(records, &again) == 0);
  roctracer_plugin_finalize();
  EXPECT(g_plugin_records == 3);

  std::printf("header_client: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
