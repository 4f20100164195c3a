#include "sdk/hardware_services.h"

#include <cstdint>
#include <mutex>

#include "sdk/agents.h"
#include "sdk/buffers.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/registration.h"

namespace rocprofiler_sdk {

rocprofiler_status_t CheckServiceContext(
    rocprofiler_context_id_t context_id) noexcept {
  uint32_t client = 0;
  if (!InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  return FindContext(context_id) == nullptr
             ? ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND
             : ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t CheckServiceBuffer(
    rocprofiler_buffer_id_t buffer_id) noexcept {
  return BufferIndex(buffer_id) < 0 ? ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND
                                    : ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t CheckServiceAgent(
    rocprofiler_agent_id_t agent_id) noexcept {
  return AgentExists(agent_id) ? ROCPROFILER_STATUS_SUCCESS
                               : ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
}

}  // namespace rocprofiler_sdk
