// The rocprofiler-sdk services that need GPU hardware (counters, counter
// configurations, device and dispatch counting, PC sampling, thread trace,
// SPM, OMPT) as a tool sees them on softhsa's agents: each function exists,
// rejects bad arguments with the SDK's documented status, and answers a
// well-formed request with the status sdk/README.md documents
// (NOT_IMPLEMENTED, or AGENT_ARCH_NOT_SUPPORTED / COUNTER_NOT_FOUND where
// rocprofiler-sdk answers so for an agent without counters).
#include <gtest/gtest.h>
#include <rocprofiler-sdk/experimental/counters.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <rocprofiler-sdk/spm.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tests/gpu/sdk_agents.h"
#include "tests/sdk/tool_configure.h"

namespace {

// A NULL the compiler cannot see, for arguments declared nonnull.
template <class T>
T* Null() {
  static T* volatile p = nullptr;
  return p;
}

constexpr rocprofiler_agent_id_t kUnknownAgent{999};
constexpr rocprofiler_context_id_t kUnknownContext{999};
constexpr rocprofiler_buffer_id_t kUnknownBuffer{999};

// What Initialize saw, by call.
struct InInit {
  std::vector<rocprofiler_agent_v0_t> agents;
  rocprofiler_context_id_t context{0};
  rocprofiler_buffer_id_t buffer{0};
  std::vector<std::pair<std::string, rocprofiler_status_t>> statuses;
  void Add(const char* what, rocprofiler_status_t s) {
    statuses.emplace_back(what, s);
  }
};
InInit& I() {
  static InInit i;
  return i;
}

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t**, size_t, void*, uint64_t) {}
void DeviceCountingCallback(rocprofiler_context_id_t, rocprofiler_agent_id_t,
                            rocprofiler_device_counting_agent_cb_t, void*) {}
void DispatchCountingCallback(rocprofiler_dispatch_counting_service_data_t,
                              rocprofiler_counter_config_id_t*,
                              rocprofiler_user_data_t*, void*) {}
void RecordCallback(rocprofiler_dispatch_counting_service_data_t,
                    rocprofiler_counter_record_t*, size_t,
                    rocprofiler_user_data_t, void*) {}
void ShaderData(rocprofiler_agent_id_t, int64_t, void*, size_t,
                rocprofiler_user_data_t) {}
rocprofiler_thread_trace_control_flags_t DispatchTrace(
    rocprofiler_agent_id_t, rocprofiler_queue_id_t,
    rocprofiler_async_correlation_id_t, rocprofiler_kernel_id_t,
    rocprofiler_dispatch_id_t, void*, rocprofiler_user_data_t*) {
  return ROCPROFILER_THREAD_TRACE_CONTROL_START_AND_STOP;
}

// Every configuration call, for one agent, inside initialize.
void ConfigureAll(const char* tag, rocprofiler_agent_id_t agent) {
  InInit& in = I();
  const std::string t(tag);
  in.Add((t + " device_counting").c_str(),
         rocprofiler_configure_device_counting_service(
             in.context, in.buffer, agent, &DeviceCountingCallback, nullptr));
  in.Add((t + " device_thread_trace").c_str(),
         rocprofiler_configure_device_thread_trace_service(
             in.context, agent, nullptr, 0, &ShaderData,
             rocprofiler_user_data_t{0}));
  in.Add(
      (t + " dispatch_thread_trace").c_str(),
      rocprofiler_configure_dispatch_thread_trace_service(
          in.context, agent, nullptr, 0, &DispatchTrace, &ShaderData, nullptr));
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  InInit& in = I();
  if (rocprofiler_create_context(&in.context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          in.context, 1 << 16, 1 << 12, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
          &BufferCallback, nullptr, &in.buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0, &gpu_test::CopyAgents,
      sizeof(rocprofiler_agent_v0_t), &in.agents);
  for (const auto& a : in.agents) {
    ConfigureAll(a.type == ROCPROFILER_AGENT_TYPE_GPU ? "gpu" : "cpu", a.id);
  }
  ConfigureAll("unknown agent", kUnknownAgent);
  in.Add("buffer dispatch_counting",
         rocprofiler_configure_buffer_dispatch_counting_service(
             in.context, in.buffer, &DispatchCountingCallback, nullptr));
  in.Add("buffer dispatch_counting unknown buffer",
         rocprofiler_configure_buffer_dispatch_counting_service(
             in.context, kUnknownBuffer, &DispatchCountingCallback, nullptr));
  in.Add("buffer dispatch_counting null callback",
         rocprofiler_configure_buffer_dispatch_counting_service(
             in.context, in.buffer, nullptr, nullptr));
  in.Add("buffer dispatch_counting unknown context",
         rocprofiler_configure_buffer_dispatch_counting_service(
             kUnknownContext, in.buffer, &DispatchCountingCallback, nullptr));
  in.Add("callback dispatch_counting",
         rocprofiler_configure_callback_dispatch_counting_service(
             in.context, &DispatchCountingCallback, nullptr, &RecordCallback,
             nullptr));
  in.Add("callback dispatch_counting null record callback",
         rocprofiler_configure_callback_dispatch_counting_service(
             in.context, &DispatchCountingCallback, nullptr, nullptr, nullptr));
  in.Add("device_counting null callback",
         rocprofiler_configure_device_counting_service(
             in.context, in.buffer, rocprofiler_agent_id_t{1},
             Null<void(rocprofiler_context_id_t, rocprofiler_agent_id_t,
                       rocprofiler_device_counting_agent_cb_t, void*)>(),
             nullptr));
  in.Add("device_counting unknown buffer",
         rocprofiler_configure_device_counting_service(
             in.context, kUnknownBuffer, rocprofiler_agent_id_t{1},
             &DeviceCountingCallback, nullptr));
  in.Add("spm",
         rocprofiler_configure_spm_service(
             in.context, in.buffer, rocprofiler_counter_config_id_t{1}, 1000));
  in.Add("spm unknown buffer", rocprofiler_configure_spm_service(
                                   in.context, kUnknownBuffer,
                                   rocprofiler_counter_config_id_t{1}, 1000));
  in.Add("spm unknown context", rocprofiler_configure_spm_service(
                                    kUnknownContext, in.buffer,
                                    rocprofiler_counter_config_id_t{1}, 1000));
  in.Add("dispatch_thread_trace null shader callback",
         rocprofiler_configure_dispatch_thread_trace_service(
             in.context, rocprofiler_agent_id_t{1}, nullptr, 0, &DispatchTrace,
             nullptr, nullptr));
  in.Add("device_thread_trace null parameters with a count",
         rocprofiler_configure_device_thread_trace_service(
             in.context, rocprofiler_agent_id_t{1}, nullptr, 2, &ShaderData,
             rocprofiler_user_data_t{0}));
  in.Add("pc_sampling",
         rocprofiler_configure_pc_sampling_service(
             in.context, rocprofiler_agent_id_t{2},
             ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,
             ROCPROFILER_PC_SAMPLING_UNIT_TIME, 1000, in.buffer, 0));
  return 0;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, "sdk_hardware_services_test");
}

class SdkHardwareServices : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(rocprofiler_force_configure(&Configure),
              ROCPROFILER_STATUS_SUCCESS);
  }
  static rocprofiler_status_t In(const std::string& what) {
    for (const auto& s : I().statuses) {
      if (s.first == what) return s.second;
    }
    ADD_FAILURE() << "not called in initialize: " << what;
    return ROCPROFILER_STATUS_LAST;
  }
};

#define EXPECT_STATUS(expected, actual)          \
  EXPECT_EQ(rocprofiler_get_status_name(actual), \
            std::string(rocprofiler_get_status_name(expected)))

TEST_F(SdkHardwareServices, SofthsasAgentsAreSeen) {
  ASSERT_EQ(I().agents.size(), 2u);  // one CPU, one GPU (gfx90a)
  EXPECT_EQ(I().agents[1].type, ROCPROFILER_AGENT_TYPE_GPU);
}

TEST_F(SdkHardwareServices, ConfiguringAServiceOnARealAgentIsNotImplemented) {
  for (const char* agent : {"cpu", "gpu"}) {
    const std::string a(agent);
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                  In(a + " device_counting"));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                  In(a + " device_thread_trace"));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                  In(a + " dispatch_thread_trace"));
  }
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                In("buffer dispatch_counting"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                In("callback dispatch_counting"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED, In("spm"));
  // rocprofiler-sdk's answer while PC sampling is not enabled.
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED, In("pc_sampling"));
}

TEST_F(SdkHardwareServices, BadConfigurationsGetTheSdksStatuses) {
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                In("unknown agent device_counting"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                In("unknown agent device_thread_trace"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                In("unknown agent dispatch_thread_trace"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                In("buffer dispatch_counting unknown buffer"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                In("buffer dispatch_counting null callback"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                In("buffer dispatch_counting unknown context"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                In("callback dispatch_counting null record callback"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                In("device_counting null callback"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                In("device_counting unknown buffer"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                In("spm unknown buffer"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                In("spm unknown context"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                In("dispatch_thread_trace null shader callback"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                In("device_thread_trace null parameters with a count"));
}

TEST_F(SdkHardwareServices, ConfigurationOutsideInitializeIsLocked) {
  const rocprofiler_context_id_t ctx = I().context;
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
      rocprofiler_configure_device_counting_service(
          ctx, I().buffer, I().agents[1].id, &DeviceCountingCallback, nullptr));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                rocprofiler_configure_buffer_dispatch_counting_service(
                    ctx, I().buffer, &DispatchCountingCallback, nullptr));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                rocprofiler_configure_dispatch_thread_trace_service(
                    ctx, I().agents[1].id, nullptr, 0, &DispatchTrace,
                    &ShaderData, nullptr));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                rocprofiler_configure_spm_service(
                    ctx, I().buffer, rocprofiler_counter_config_id_t{1}, 1));
}

int g_counter_callbacks = 0;
rocprofiler_status_t CountersCallback(rocprofiler_agent_id_t,
                                      rocprofiler_counter_id_t*, size_t,
                                      void*) {
  ++g_counter_callbacks;
  return ROCPROFILER_STATUS_SUCCESS;
}
rocprofiler_status_t DimensionsCallback(
    rocprofiler_counter_id_t,
    const rocprofiler_counter_record_dimension_info_t*, size_t, void*) {
  return ROCPROFILER_STATUS_SUCCESS;
}

// No agent has counters: rocprofiler-sdk's answers for an architecture
// without counter definitions.
TEST_F(SdkHardwareServices, NoAgentOffersCounters) {
  for (const auto& a : I().agents) {
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED,
                  rocprofiler_iterate_agent_supported_counters(
                      a.id, &CountersCallback, nullptr));
    rocprofiler_counter_config_id_t config{0};
    rocprofiler_counter_id_t counter{1};
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
        rocprofiler_create_counter_config(a.id, &counter, 1, &config));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                  rocprofiler_create_counter_config(a.id, nullptr, 0, &config));
    // The 1.0.0 name, inline in deprecated/profile_config.h.
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                  rocprofiler_create_profile_config(a.id, nullptr, 0, &config));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                  rocprofiler_create_counter("X", 1, "SQ_WAVES*2", 10, nullptr,
                                             0, a.id, &counter));
    EXPECT_EQ(config.handle, 0u);
  }
  EXPECT_EQ(g_counter_callbacks, 0);
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                rocprofiler_iterate_agent_supported_counters(
                    kUnknownAgent, &CountersCallback, nullptr));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_iterate_agent_supported_counters(
                    I().agents[1].id,
                    Null<rocprofiler_status_t(rocprofiler_agent_id_t,
                                              rocprofiler_counter_id_t*, size_t,
                                              void*)>(),
                    nullptr));
  rocprofiler_counter_config_id_t config{0};
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
      rocprofiler_create_counter_config(kUnknownAgent, nullptr, 0, &config));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_create_counter_config(
                    I().agents[1].id, nullptr, 0,
                    Null<rocprofiler_counter_config_id_t>()));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_create_counter_config(I().agents[1].id, nullptr, 3, &config));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                rocprofiler_destroy_counter_config(config));
  rocprofiler_counter_id_t counter{0};
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                rocprofiler_create_counter("X", 1, "Y", 1, nullptr, 0,
                                           kUnknownAgent, &counter));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_create_counter(Null<const char>(), 1, "Y", 1, nullptr, 0,
                                 I().agents[1].id, &counter));
}

TEST_F(SdkHardwareServices, NoCounterIsKnown) {
  rocprofiler_counter_info_v1_t info;
  std::memset(&info, 0, sizeof(info));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
                rocprofiler_query_counter_info(
                    rocprofiler_counter_id_t{1},
                    ROCPROFILER_COUNTER_INFO_VERSION_1, &info));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
                rocprofiler_query_counter_info(
                    rocprofiler_counter_id_t{1},
                    ROCPROFILER_COUNTER_INFO_VERSION_0, &info));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI,
                rocprofiler_query_counter_info(
                    rocprofiler_counter_id_t{1},
                    ROCPROFILER_COUNTER_INFO_VERSION_LAST, &info));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_query_counter_info(
                    rocprofiler_counter_id_t{1},
                    ROCPROFILER_COUNTER_INFO_VERSION_1, Null<void>()));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
                rocprofiler_iterate_counter_dimensions(
                    rocprofiler_counter_id_t{1}, &DimensionsCallback, nullptr));
  size_t count = 7;
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
                rocprofiler_query_counter_instance_count(
                    I().agents[1].id, rocprofiler_counter_id_t{1}, &count));
  EXPECT_EQ(count, 7u);
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_query_counter_instance_count(
          I().agents[1].id, rocprofiler_counter_id_t{1}, Null<size_t>()));
  rocprofiler_counter_id_t id{0};
  size_t pos = 0;
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                rocprofiler_query_record_counter_id(5, &id));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_query_record_counter_id(5, Null<rocprofiler_counter_id_t>()));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                rocprofiler_query_record_dimension_position(5, 0, &pos));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_query_record_dimension_position(5, 0, Null<size_t>()));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                rocprofiler_load_counter_definition(
                    "a: b", 4, ROCPROFILER_COUNTER_FLAG_NONE));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_load_counter_definition(
                    nullptr, 4, ROCPROFILER_COUNTER_FLAG_NONE));
}

TEST_F(SdkHardwareServices, SamplingADeviceCountingContext) {
  rocprofiler_counter_record_t records[4];
  size_t n = 4;
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                rocprofiler_sample_device_counting_service(
                    I().context, rocprofiler_user_data_t{0},
                    ROCPROFILER_COUNTER_FLAG_NONE, records, &n));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                rocprofiler_sample_device_counting_service(
                    kUnknownContext, rocprofiler_user_data_t{0},
                    ROCPROFILER_COUNTER_FLAG_NONE, records, &n));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                rocprofiler_sample_device_counting_service(
                    ROCPROFILER_CONTEXT_NONE, rocprofiler_user_data_t{0},
                    ROCPROFILER_COUNTER_FLAG_NONE, records, &n));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_sample_device_counting_service(
                    I().context, rocprofiler_user_data_t{0},
                    ROCPROFILER_COUNTER_FLAG_NONE, records, nullptr));
}

int g_config_callbacks = 0;
rocprofiler_status_t PcConfigs(const rocprofiler_pc_sampling_configuration_t*,
                               size_t, void*) {
  ++g_config_callbacks;
  return ROCPROFILER_STATUS_SUCCESS;
}

TEST_F(SdkHardwareServices, PcSampling) {
  int data = 0;
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                rocprofiler_query_pc_sampling_agent_configurations(
                    I().agents[1].id, &PcConfigs, &data));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_query_pc_sampling_agent_configurations(
          I().agents[1].id,
          Null<rocprofiler_status_t(
              const rocprofiler_pc_sampling_configuration_t*, size_t, void*)>(),
          &data));
  EXPECT_EQ(g_config_callbacks, 0);
  EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_type_name(
                   ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE),
               "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE");
  EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_type_name(
                   ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU),
               "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU");
  EXPECT_EQ(rocprofiler_get_pc_sampling_instruction_type_name(
                ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST),
            nullptr);
  EXPECT_STREQ(
      rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
          ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL),
      "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_"
      "STALL");
  EXPECT_EQ(rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
                ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST),
            nullptr);
  // Every value below LAST has a distinct name.
  std::vector<std::string> names;
  for (int i = 0; i < ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST; ++i) {
    const char* n = rocprofiler_get_pc_sampling_instruction_type_name(
        static_cast<rocprofiler_pc_sampling_instruction_type_t>(i));
    ASSERT_NE(n, nullptr) << i;
    names.emplace_back(n);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
}

void Decoded(rocprofiler_thread_trace_decoder_record_type_t, void*, uint64_t,
             void*) {}

// The decoder library is absent here: rocprofiler-sdk's NOT_AVAILABLE.
TEST_F(SdkHardwareServices, ThreadTraceDecoderIsNotAvailable) {
  rocprofiler_thread_trace_decoder_handle_t h{77};
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE,
                rocprofiler_thread_trace_decoder_create(&h, "/opt/rocm/lib"));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_thread_trace_decoder_create(
                    Null<rocprofiler_thread_trace_decoder_handle_t>(), "/"));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_thread_trace_decoder_create(&h, Null<const char>()));
  char data[8] = {};
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_trace_decode(h, &Decoded, data, sizeof(data), nullptr));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
      rocprofiler_thread_trace_decoder_codeobj_load(h, 1, 0x1000, 8, data, 8));
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_thread_trace_decoder_codeobj_unload(h, 1));
  EXPECT_EQ(rocprofiler_thread_trace_decoder_info_string(
                h, ROCPROFILER_THREAD_TRACE_DECODER_INFO_DATA_LOST),
            nullptr);
  rocprofiler_thread_trace_decoder_destroy(h);
}

TEST_F(SdkHardwareServices, OmptIsNeitherInitializedNorFinalized) {
  int status = 5;
  EXPECT_STATUS(ROCPROFILER_STATUS_SUCCESS,
                rocprofiler_ompt_is_initialized(&status));
  EXPECT_EQ(status, 0);
  status = 5;
  EXPECT_STATUS(ROCPROFILER_STATUS_SUCCESS,
                rocprofiler_ompt_is_finalized(&status));
  EXPECT_EQ(status, 0);
  EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                rocprofiler_ompt_is_initialized(Null<int>()));
  EXPECT_EQ(rocprofiler_ompt_start_tool(201611, "test"), nullptr);
}

TEST_F(SdkHardwareServices, InterceptTableNames) {
  const char* name = nullptr;
  uint64_t len = 0;
  EXPECT_STATUS(ROCPROFILER_STATUS_SUCCESS,
                rocprofiler_query_intercept_table_name(ROCPROFILER_HSA_TABLE,
                                                       &name, &len));
  EXPECT_STREQ(name, "HSA");
  EXPECT_EQ(len, 3u);
  EXPECT_STATUS(ROCPROFILER_STATUS_SUCCESS,
                rocprofiler_query_intercept_table_name(
                    ROCPROFILER_MARKER_NAME_TABLE, &name, &len));
  EXPECT_STREQ(name, "MARKER (ROCTx Name)");
  EXPECT_EQ(len, std::strlen("MARKER (ROCTx Name)"));
  EXPECT_STATUS(ROCPROFILER_STATUS_SUCCESS,
                rocprofiler_query_intercept_table_name(
                    ROCPROFILER_ROCJPEG_TABLE, nullptr, &len));
  EXPECT_EQ(len, std::strlen("rocJPEG"));
  EXPECT_STATUS(
      ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
      rocprofiler_query_intercept_table_name(
          static_cast<rocprofiler_intercept_table_t>(3), &name, &len));
  EXPECT_EQ(name, nullptr);
  EXPECT_EQ(len, 0u);
}

}  // namespace
