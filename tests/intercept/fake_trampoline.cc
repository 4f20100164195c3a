// Stands in for libhsa-runtime64's exported entry points, which forward
// through the runtime's dispatch table (the one a tool's OnLoad rewrote).
#include <hsa/hsa_api_trace.h>

namespace {
HsaApiTable* g_table = nullptr;
}  // namespace

extern "C" {

__attribute__((visibility("default"))) void fake_trampoline_set_table(
    HsaApiTable* table) {
  g_table = table;
}

__attribute__((visibility("default"))) hsa_status_t hsa_status_string(
    hsa_status_t status, const char** text) {
  return g_table->core_->hsa_status_string_fn(status, text);
}

__attribute__((visibility("default"))) hsa_status_t hsa_system_get_info(
    hsa_system_info_t attribute, void* value) {
  return g_table->core_->hsa_system_get_info_fn(attribute, value);
}

}  // extern "C"
