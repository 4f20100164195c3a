// A stand-in for an HSA runtime built with rocprofiler-register (ROCm >=
// 6.2), for registration_test: its exported functions dispatch through its
// HsaApiTable, which hsa_init registers with rocprofiler-register first
// (once), as ROCR does before the table is used.
#include <hsa/hsa_api_trace.h>

#include <cstdint>
#include <cstring>
#include <mutex>

extern "C" {
typedef uint32_t (*rocprofiler_register_import_func_t)(void);
typedef struct {
  uint64_t handle;
} rocprofiler_register_library_indentifier_t;
int rocprofiler_register_library_api_table(
    const char*, rocprofiler_register_import_func_t, uint32_t, void**, uint64_t,
    rocprofiler_register_library_indentifier_t*);

// What rocprofiler-register looks up to place the registering library.
__attribute__((visibility("default"))) uint32_t
rocprofiler_register_import_hsa() {
  return 60200;
}
}

namespace {

hsa_status_t Init() { return HSA_STATUS_SUCCESS; }
hsa_status_t ShutDown() { return HSA_STATUS_SUCCESS; }
hsa_status_t SystemGetInfo(hsa_system_info_t attribute, void* value) {
  if (attribute != HSA_SYSTEM_INFO_VERSION_MAJOR) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *static_cast<uint16_t*>(value) = 42;  // recognisably this runtime's answer
  return HSA_STATUS_SUCCESS;
}
hsa_status_t StatusString(hsa_status_t, const char** text) {
  *text = "stand-in status";
  return HSA_STATUS_SUCCESS;
}

CoreApiTable g_core;
HsaApiTable g_table;
int g_status = -1;

void Register() {
  g_core.version = {HSA_CORE_API_TABLE_MAJOR_VERSION, sizeof(CoreApiTable),
                    HSA_CORE_API_TABLE_STEP_VERSION, 0};
  g_core.hsa_init_fn = &Init;
  g_core.hsa_shut_down_fn = &ShutDown;
  g_core.hsa_system_get_info_fn = &SystemGetInfo;
  g_core.hsa_status_string_fn = &StatusString;
  g_table.version = {HSA_API_TABLE_MAJOR_VERSION, sizeof(HsaApiTable),
                     HSA_API_TABLE_STEP_VERSION, 0};
  g_table.core_ = &g_core;
  void* tables[] = {&g_table};
  rocprofiler_register_library_indentifier_t id{};
  g_status = rocprofiler_register_library_api_table(
      "hsa", &rocprofiler_register_import_hsa, 60200, tables, 1, &id);
}

}  // namespace

extern "C" {

#define STANDIN_API __attribute__((visibility("default")))

STANDIN_API hsa_status_t hsa_init() {
  static std::once_flag once;
  std::call_once(once, Register);
  return g_core.hsa_init_fn();
}
STANDIN_API hsa_status_t hsa_shut_down() { return g_core.hsa_shut_down_fn(); }
STANDIN_API hsa_status_t hsa_system_get_info(hsa_system_info_t attribute,
                                             void* value) {
  return g_core.hsa_system_get_info_fn(attribute, value);
}
STANDIN_API hsa_status_t hsa_status_string(hsa_status_t status,
                                           const char** text) {
  return g_core.hsa_status_string_fn(status, text);
}

// For the test: the registered table and rocprofiler-register's answer.
STANDIN_API HsaApiTable* standin_table(int* status) {
  *status = g_status;
  return &g_table;
}

}  // extern "C"
