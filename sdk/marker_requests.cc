#include "sdk/marker_requests.h"

#include "runtime/private/roctx_link.h"

namespace rocprofiler_sdk {

void FillMarkerRequestArgs(uint32_t request, const void* request_args,
                           rocprofiler_marker_api_args_t* args) noexcept {
  const auto* r = static_cast<const roctracer::RoctxRequestArgs*>(request_args);
  switch (request) {
    case roctracer::kRoctxGetThreadId:
      args->roctxGetThreadId.tid =
          static_cast<roctx_thread_id_t*>(const_cast<void*>(r->object));
      break;
    case roctracer::kRoctxProfilerPause:
      args->roctxProfilerPause.tid = r->value;
      break;
    case roctracer::kRoctxProfilerResume:
      args->roctxProfilerResume.tid = r->value;
      break;
    case roctracer::kRoctxNameOsThread:
      args->roctxNameOsThread.name = r->name;
      break;
    case roctracer::kRoctxNameHsaAgent:
      args->roctxNameHsaAgent.name = r->name;
      args->roctxNameHsaAgent.agent =
          static_cast<const struct hsa_agent_s*>(r->object);
      break;
    case roctracer::kRoctxNameHipDevice:
      args->roctxNameHipDevice.name = r->name;
      args->roctxNameHipDevice.device_id =
          static_cast<int>(static_cast<int64_t>(r->value));
      break;
    case roctracer::kRoctxNameHipStream:
      args->roctxNameHipStream.name = r->name;
      args->roctxNameHipStream.stream =
          static_cast<const struct ihipStream_t*>(r->object);
      break;
    default:
      break;
  }
}

}  // namespace rocprofiler_sdk
