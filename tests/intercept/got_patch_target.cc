// Dlopen'ed by got_patch_test after the test binary (which holds the stubs
// and the patcher) started: its calls reach libamdhip64 / libhsa-runtime64
// through its own GOT until the patcher rewrites it.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

extern "C" __attribute__((visibility("default"))) const char*
target_error_string(int e) {
  return hipGetErrorString(static_cast<hipError_t>(e));
}

extern "C" __attribute__((visibility("default"))) int target_status_string() {
  const char* text = nullptr;
  return static_cast<int>(hsa_status_string(HSA_STATUS_ERROR, &text));
}
