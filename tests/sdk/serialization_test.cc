// <rocprofiler-sdk/cxx/serialization.hpp>: records, payloads and agents
// written with cereal's JSON archive carry their fields under the C
// headers' names with their values; a HIP *_API_EXT record writes its
// arguments; the binary archives take the same types.
#include "rocprofiler-sdk/cxx/serialization.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace {

template <typename Tp>
std::string Json(const char* name, const Tp& value) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive archive{
        out, cereal::JSONOutputArchive::Options::NoIndent()};
    archive(cereal::make_nvp(name, value));
  }
  // Without indentation cereal still breaks lines: one line, for matching.
  std::string json = out.str();
  json.erase(std::remove(json.begin(), json.end(), '\n'), json.end());
  return json;
}

// `"key": value` in that line.
bool Has(const std::string& json, const std::string& key,
         const std::string& value) {
  return json.find("\"" + key + "\": " + value) != std::string::npos;
}

TEST(Serialization, KernelDispatchRecord) {
  rocprofiler_buffer_tracing_kernel_dispatch_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
  r.operation = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
  r.correlation_id.internal = 42;
  r.correlation_id.external.value = 7;
  r.thread_id = 1234;
  r.start_timestamp = 100;
  r.end_timestamp = 200;
  r.dispatch_info.agent_id.handle = 3;
  r.dispatch_info.kernel_id = 9;
  r.dispatch_info.grid_size = rocprofiler_dim3_t{64, 2, 1};
  const std::string json = Json("record", r);
  EXPECT_TRUE(Has(json, "size", std::to_string(sizeof(r)))) << json;
  EXPECT_TRUE(Has(json, "kind",
                  std::to_string(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)))
      << json;
  EXPECT_TRUE(Has(json, "correlation_id", "{\"internal\": 42,\"external\": 7}"))
      << json;
  EXPECT_TRUE(Has(json, "start_timestamp", "100")) << json;
  EXPECT_TRUE(Has(json, "end_timestamp", "200")) << json;
  EXPECT_TRUE(Has(json, "agent_id", "{\"handle\": 3}")) << json;
  EXPECT_TRUE(Has(json, "kernel_id", "9")) << json;
  EXPECT_TRUE(Has(json, "grid_size", "{\"x\": 64,\"y\": 2,\"z\": 1}")) << json;
}

TEST(Serialization, CallbackRecordAndPayloads) {
  rocprofiler_callback_tracing_record_t r{};
  r.context_id.handle = 1;
  r.thread_id = 5;
  r.correlation_id.internal = 11;
  r.correlation_id.ancestor = 10;
  r.kind = ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API;
  r.operation = 3;
  r.phase = ROCPROFILER_CALLBACK_PHASE_EXIT;
  const std::string json = Json("record", r);
  EXPECT_TRUE(Has(json, "correlation_id",
                  "{\"internal\": 11,\"external\": 0,\"ancestor\": 10}"))
      << json;
  EXPECT_TRUE(
      Has(json, "phase", std::to_string(ROCPROFILER_CALLBACK_PHASE_EXIT)))
      << json;

  rocprofiler_callback_tracing_code_object_load_data_t co{};
  co.size = sizeof(co);
  co.code_object_id = 2;
  co.uri = "file:///a.out#offset=0&size=10";
  co.storage_type = ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
  co.memory_base = 0x1000;
  co.memory_size = 10;
  const std::string co_json = Json("payload", co);
  EXPECT_TRUE(Has(co_json, "uri", "\"file:///a.out#offset=0&size=10\""))
      << co_json;
  EXPECT_TRUE(Has(co_json, "memory_base", "4096")) << co_json;
  EXPECT_EQ(co_json.find("storage_file"), std::string::npos) << co_json;

  rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t k{};
  k.kernel_name = nullptr;  // written as ""
  EXPECT_TRUE(Has(Json("payload", k), "kernel_name", "\"\""));

  rocprofiler_callback_tracing_hsa_api_data_t hsa{};
  hsa.size = sizeof(hsa);
  hsa.retval.hsa_status_t_retval = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const std::string hsa_json = Json("payload", hsa);
  EXPECT_TRUE(Has(hsa_json, "retval",
                  "{\"uint64_t_retval\": " +
                      std::to_string(HSA_STATUS_ERROR_INVALID_ARGUMENT) + "}"))
      << hsa_json;
  EXPECT_EQ(hsa_json.find("args"), std::string::npos) << hsa_json;
}

TEST(Serialization, HipExtRecordWritesItsArguments) {
  rocprofiler_buffer_tracing_hip_api_ext_record_t r{};
  std::memset(static_cast<void*>(&r.retval), 0, sizeof(r.retval));
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT;
  r.operation = ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc;
  r.args.hipMalloc.ptr = nullptr;
  r.args.hipMalloc.size = 4096;
  r.retval.hipError_t_retval = hipErrorOutOfMemory;
  const std::string json = Json("record", r);
  EXPECT_NE(json.find("{\"type\": \"size_t\",\"name\": \"size\",\"value\": "
                      "\"4096\"}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"name\": \"ptr\""), std::string::npos) << json;
  // 1.0.0's member: the union's first 8 bytes.
  EXPECT_TRUE(
      Has(json, "retval",
          "{\"uint64_t_retval\": " + std::to_string(hipErrorOutOfMemory) + "}"))
      << json;
  const auto args = rocprofiler::sdk::serialization::get_buffer_tracing_args(r);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[1].name, "size");
  // A record of a kind without arguments has none.
  rocprofiler_buffer_tracing_hip_api_record_t plain{};
  plain.kind = ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API;
  EXPECT_TRUE(
      rocprofiler::sdk::serialization::get_buffer_tracing_args(plain).empty());
}

TEST(Serialization, RetirementAndMemoryRecords) {
  rocprofiler_buffer_tracing_correlation_id_retirement_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
  r.timestamp = 77;
  r.internal_correlation_id = 5;
  const std::string json = Json("record", r);
  EXPECT_TRUE(Has(json, "timestamp", "77")) << json;
  EXPECT_TRUE(Has(json, "internal_correlation_id", "5")) << json;

  rocprofiler_buffer_tracing_memory_allocation_record_t m{};
  m.address.handle = 0x2000;
  m.allocation_size = 64;
  const std::string m_json = Json("record", m);
  // As 1.0.0 writes it: hexadecimal, 16 digits.
  EXPECT_TRUE(Has(m_json, "address", "\"0x0000000000002000\"")) << m_json;
  EXPECT_TRUE(Has(m_json, "allocation_size", "64")) << m_json;
}

#ifdef ROCPROFILER_SDK_DETAIL_HSA_AMD_TOOL_EVENTS
// The HSA runtime's scratch events (headers of ROCm >= 6.1): the queue as
// {queue_id}, under queue_id, then the event's fields, as 1.0.0 writes them.
TEST(Serialization, ScratchEvents) {
  hsa_queue_t queue{};
  queue.id = 17;
  hsa_amd_event_scratch_alloc_end_t end{};
  end.queue = &queue;
  end.dispatch_id = 5;
  end.size = 4096;
  end.num_slots = 32;
  const std::string json = Json("event", end);
  EXPECT_NE(json.find("{\"queue_id\": {\"queue_id\": 17},\"dispatch_id\": "
                      "5,\"size\": 4096,\"num_slots\": 32,\"flags\": 0}"),
            std::string::npos)
      << json;
  hsa_amd_event_scratch_free_start_t start{};
  start.queue = nullptr;  // written as a queue of ID 0
  EXPECT_TRUE(Has(Json("event", start), "queue_id", "{\"queue_id\": 0}"));
}
#endif

TEST(Serialization, AgentWithItsArrays) {
  rocprofiler_agent_cache_t caches[2] = {};
  caches[0].level = 1;
  caches[1].level = 2;
  rocprofiler_agent_v0_t a{};
  a.size = sizeof(a);
  a.id.handle = 1;
  a.type = ROCPROFILER_AGENT_TYPE_GPU;
  a.caches = caches;
  a.caches_count = 2;
  a.name = "gfx90a";
  a.product_name = nullptr;
  a.runtime_visibility.hip = 1;
  const std::string json = Json("agent", a);
  EXPECT_TRUE(Has(json, "name", "\"gfx90a\"")) << json;
  EXPECT_TRUE(Has(json, "product_name", "\"\"")) << json;
  EXPECT_TRUE(Has(json, "mem_banks", "[]")) << json;
  EXPECT_NE(json.find("\"level\": 1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"level\": 2"), std::string::npos) << json;
  EXPECT_TRUE(Has(json, "runtime_visibility",
                  "{\"hsa\": 0,\"hip\": 1,\"rccl\": 0,\"rocdecode\": 0}"))
      << json;
}

TEST(Serialization, BinaryArchives) {
  rocprofiler_buffer_tracing_hsa_api_record_t r{};
  r.size = sizeof(r);
  r.correlation_id.internal = 1;
  std::ostringstream binary, portable;
  {
    cereal::BinaryOutputArchive archive{binary};
    archive(r);
  }
  {
    cereal::PortableBinaryOutputArchive archive{portable};
    archive(r);
  }
  // size, kind, operation, internal/external/ancestor, start, end, thread.
  EXPECT_EQ(binary.str().size(), 8u + 4 + 4 + 3 * 8 + 3 * 8);
  EXPECT_FALSE(portable.str().empty());
}

}  // namespace
