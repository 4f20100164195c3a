// Test double for the runtime side of runtime/intercept/api_hook.h: records
// every Enter/Exit with a copy of the callback data, so tests can check what
// the generated stubs passed.
#ifndef ROCTRACER_TESTS_CODEGEN_HOOK_RECORDER_H_
#define ROCTRACER_TESTS_CODEGEN_HOOK_RECORDER_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "kfd_api_data.h"

namespace hook_recorder {

struct Call {
  bool enter;  // false: Exit
  uint32_t domain;
  uint32_t op;
  // The stub's data at the time of the call (only the member of its domain
  // is meaningful).
  alignas(hip_api_data_t) unsigned char hip[sizeof(hip_api_data_t)];
  alignas(hsa_api_data_t) unsigned char hsa[sizeof(hsa_api_data_t)];
  alignas(kfd_api_data_t) unsigned char kfd[sizeof(kfd_api_data_t)];
  const void* data_address;
  const void* frame_address;

  const hsa_api_data_t& hsa_data() const {
    return *reinterpret_cast<const hsa_api_data_t*>(hsa);
  }
  const hip_api_data_t& hip_data() const {
    return *reinterpret_cast<const hip_api_data_t*>(hip);
  }
  const kfd_api_data_t& kfd_data() const {
    return *reinterpret_cast<const kfd_api_data_t*>(kfd);
  }
};

std::vector<Call> Take();  // returns and clears the calls recorded so far

// Enables (or disables) one op for the stubs, as the runtime will.
void SetActive(uint32_t domain, uint32_t op, bool on);
void DisableAll();

}  // namespace hook_recorder

#endif  // ROCTRACER_TESTS_CODEGEN_HOOK_RECORDER_H_
