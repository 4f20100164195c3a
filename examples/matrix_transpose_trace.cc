// The tracing half of the roctracer specification's MatrixTranspose sample,
// around real HIP and HSA calls instead of a GPU kernel (there is no GPU on
// the machines this project is developed on: the calls still reach
// libamdhip64 and libhsa-runtime64 and return their real status codes).
//
// The program links libroctracer64.so ahead of the runtimes, so the tracer's
// exported hip*/hsa_* entry points see every call, including the calls
// libamdhip64 makes into HSA on its own behalf.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define ROCTRACER_CALL(call)                         \
  do {                                               \
    roctracer_status_t status_ = (call);             \
    if (status_ != ROCTRACER_STATUS_SUCCESS) {       \
      std::fprintf(stderr, "%s failed: %s\n", #call, \
                   roctracer_error_string());        \
      std::exit(EXIT_FAILURE);                       \
    }                                                \
  } while (0)

namespace {

const char* PhaseName(uint32_t phase) {
  return phase == ACTIVITY_API_PHASE_ENTER ? "enter" : "exit";
}

void HipCallback(uint32_t domain, uint32_t cid, const void* callback_data,
                 void* /*arg*/) {
  const auto* data = static_cast<const hip_api_data_t*>(callback_data);
  std::printf("<%s id(%u) correlation_id(%" PRIu64 ") %s>",
              roctracer_op_string(domain, cid, 0), cid, data->correlation_id,
              PhaseName(data->phase));
  if (data->phase == ACTIVITY_API_PHASE_ENTER) {
    switch (cid) {
      case HIP_API_ID_hipMemcpy:
        std::printf(" dst(%p) src(%p) size(%zu) kind(%d)",
                    data->args.hipMemcpy.dst, data->args.hipMemcpy.src,
                    data->args.hipMemcpy.sizeBytes,
                    static_cast<int>(data->args.hipMemcpy.kind));
        break;
      case HIP_API_ID_hipMalloc:
        std::printf(" ptr(%p) size(%zu)",
                    static_cast<void*>(data->args.hipMalloc.ptr),
                    data->args.hipMalloc.size);
        break;
      case HIP_API_ID_hipFree:
        std::printf(" ptr(%p)", data->args.hipFree.ptr);
        break;
      default:
        break;
    }
  } else if (cid == HIP_API_ID_hipGetErrorString) {
    std::printf(" -> \"%s\"", data->const_char_ptr_retval);
  } else {
    std::printf(" -> %d", static_cast<int>(data->hipError_t_retval));
  }
  std::printf("\n");
}

void HsaCallback(uint32_t domain, uint32_t cid, const void* callback_data,
                 void* /*arg*/) {
  const auto* data = static_cast<const hsa_api_data_t*>(callback_data);
  std::printf("<%s id(%u) correlation_id(%" PRIu64 ") %s>",
              roctracer_op_string(domain, cid, 0), cid, data->correlation_id,
              PhaseName(data->phase));
  if (data->phase == ACTIVITY_API_PHASE_EXIT) {
    std::printf(" -> 0x%x", static_cast<unsigned>(data->hsa_status_t_retval));
  }
  std::printf("\n");
}

void RoctxCallback(uint32_t /*domain*/, uint32_t cid, const void* callback_data,
                   void* /*arg*/) {
  const auto* data = static_cast<const roctx_api_data_t*>(callback_data);
  const char* message = data->args.message;
  std::printf("<rocTX %s \"%s\">\n",
              roctracer_op_string(ACTIVITY_DOMAIN_ROCTX, cid, 0),
              message != nullptr ? message : "");
}

void ActivityCallback(const char* begin, const char* end, void* /*arg*/) {
  const auto* record = reinterpret_cast<const roctracer_record_t*>(begin);
  const auto* end_record = reinterpret_cast<const roctracer_record_t*>(end);
  std::printf("\tActivity records:\n");
  while (record < end_record) {
    const char* name =
        roctracer_op_string(record->domain, record->op, record->kind);
    switch (record->domain) {
      case ACTIVITY_DOMAIN_EXT_API:
        std::printf("\t  external_id(%" PRIu64 ") tags correlation_id(%" PRIu64
                    ")\n",
                    record->external_id, record->correlation_id);
        break;
      case ACTIVITY_DOMAIN_ROCTX:
        std::printf("\t  rocTX %s \"%s\" time_ns(%" PRIu64 ")\n", name,
                    record->mark_message != nullptr ? record->mark_message : "",
                    record->begin_ns);
        break;
      default:
        std::printf("\t  %s correlation_id(%" PRIu64 ") time_ns(%" PRIu64
                    ":%" PRIu64 ") pid(%u) tid(%u)\n",
                    name != nullptr ? name : "?", record->correlation_id,
                    record->begin_ns, record->end_ns, record->process_id,
                    record->thread_id);
        break;
    }
    ROCTRACER_CALL(roctracer_next_record(record, &record));
  }
}

void StartTracing() {
  std::printf("# START #############################\n");
  roctracer_properties_t properties{};
  properties.buffer_size = 0x1000;
  properties.buffer_callback_fun = ActivityCallback;
  ROCTRACER_CALL(roctracer_open_pool(&properties));
  ROCTRACER_CALL(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HIP_API,
                                                  HipCallback, nullptr));
  ROCTRACER_CALL(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API,
                                                  HsaCallback, nullptr));
  ROCTRACER_CALL(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX,
                                                  RoctxCallback, nullptr));
  ROCTRACER_CALL(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HIP_API));
  ROCTRACER_CALL(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API));
  ROCTRACER_CALL(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX));
  ROCTRACER_CALL(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_EXT_API));
}

void StopTracing() {
  ROCTRACER_CALL(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HIP_API));
  ROCTRACER_CALL(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_API));
  ROCTRACER_CALL(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_ROCTX));
  ROCTRACER_CALL(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_API));
  ROCTRACER_CALL(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_API));
  ROCTRACER_CALL(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_ROCTX));
  ROCTRACER_CALL(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_EXT_API));
  // Closing the default pool flushes it: every record above is printed
  // before the STOP line.
  ROCTRACER_CALL(roctracer_close_pool());
  std::printf("# STOP  #############################\n");
}

}  // namespace

int main() {
  constexpr size_t kWidth = 64;
  constexpr size_t kBytes = kWidth * kWidth * sizeof(float);
  std::vector<float> matrix(kWidth * kWidth);
  for (size_t i = 0; i < matrix.size(); ++i) matrix[i] = static_cast<float>(i);

  StartTracing();

  roctxMark("before runtime initialisation");
  roctxRangePush("HSA");
  hsa_status_t hsa_status = hsa_init();
  uint16_t major = 0;
  hsa_status_t info_status =
      hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  const char* status_text = nullptr;
  hsa_status_string(hsa_status, &status_text);
  std::printf("hsa_init: 0x%x (%s), hsa_system_get_info: 0x%x\n",
              static_cast<unsigned>(hsa_status),
              status_text != nullptr ? status_text : "?",
              static_cast<unsigned>(info_status));
  roctxRangePop();

  roctracer_activity_push_external_correlation_id(42);
  roctxRangePush("HIP");
  int device_count = -1;
  hipError_t count_status = hipGetDeviceCount(&device_count);
  std::printf("hipGetDeviceCount: %d (%s), %d device(s)\n",
              static_cast<int>(count_status), hipGetErrorString(count_status),
              device_count);

  float* device_matrix = nullptr;
  hipError_t malloc_status =
      hipMalloc(reinterpret_cast<void**>(&device_matrix), kBytes);
  hipError_t copy_status =
      hipMemcpy(device_matrix, matrix.data(), kBytes, hipMemcpyHostToDevice);
  hipError_t free_status = hipFree(device_matrix);
  std::printf("hipMalloc: %d, hipMemcpy: %d, hipFree: %d\n",
              static_cast<int>(malloc_status), static_cast<int>(copy_status),
              static_cast<int>(free_status));
  roctxRangePop();
  activity_correlation_id_t last_id = 0;
  roctracer_activity_pop_external_correlation_id(&last_id);

  StopTracing();
  return 0;
}
