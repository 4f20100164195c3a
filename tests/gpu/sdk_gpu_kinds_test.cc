// rocprofiler-sdk's GPU callback kinds on softhsa, with libroctracer64.so.4
// loaded as the HSA tool (HSA_TOOLS_LIB) as on ROCR: a tool registered with
// rocprofiler_force_configure subscribes to KERNEL_DISPATCH, MEMORY_COPY and
// CODE_OBJECT (and to the doorbell store of HSA_CORE_API, to check
// correlation) and checks what a tool reads: phases, the payload's fields,
// kernel IDs linking a dispatch to its symbol, times in
// rocprofiler_get_timestamp's clock, user data and external correlation IDs
// carried from ENTER to the completion, names and argument iteration; and
// COMPLETE callbacks that flush, create, destroy or submit to queues (on the
// tracer's completion thread) return.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/gpu/sdk_agents.h"
#include "tests/sdk/tool_configure.h"

namespace {

using gpu_test::CopyAgents;
using gpu_test::QueryAgents;
using gpu_test::SdkAgentId;

struct Event {
  rocprofiler_callback_tracing_record_t record;
  uint64_t user_in;   // user_data as the callback received it
  uint64_t user_out;  // and as it left it
  union {
    rocprofiler_callback_tracing_kernel_dispatch_data_t dispatch;
    rocprofiler_callback_tracing_memory_copy_data_t copy;
    rocprofiler_callback_tracing_code_object_load_data_t load;
    rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t
        symbol;
  };
  std::string text;  // uri or kernel name
  std::string args;  // "name=value;" per iterated argument
};

struct Tool {
  std::mutex mutex;
  std::vector<Event> events;
  rocprofiler_context_id_t context{0};
  rocprofiler_status_t scratch_status = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t configure_status[3] = {};
  rocprofiler_status_t buffer_status[3] = {};
  uint64_t next_user = 100;
  rocprofiler_buffer_id_t buffer{0};
  // What the buffer delivered.
  std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> dispatches;
  std::vector<rocprofiler_buffer_tracing_memory_copy_record_t> copies;
  // When set, each dispatch's COMPLETE callback flushes the buffer (and
  // counts the flushes that succeeded).
  std::atomic<bool> flush_on_complete{false};
  std::atomic<int> flushes_on_complete{0};
  // When set, the next dispatch's COMPLETE callback creates a queue on
  // `gpu`, runs `kernel` on it, waits for it and destroys the queue
  // (counting each step that succeeded in `queue_steps`).
  std::atomic<bool> queue_on_complete{false};
  std::atomic<int> queue_steps{0};
  // When set, the next dispatch's COMPLETE callback submits `kernel` to
  // `other_queue` with `other_done` as its completion signal.
  std::atomic<bool> submit_on_complete{false};
  std::atomic<int> submitted_on_complete{0};
  // When set, the next dispatch's COMPLETE callback destroys `doomed`
  // (storing what hsa_queue_destroy returned in `doomed_status`).
  std::atomic<bool> destroy_on_complete{false};
  std::atomic<int> doomed_status{-1};
  hsa_queue_t* doomed = nullptr;
  hsa_agent_t gpu{0};
  uint64_t kernel = 0;
  void* kernarg = nullptr;
  hsa_queue_t* other_queue = nullptr;
  hsa_signal_t other_done{0};

  std::vector<Event> Of(int32_t kind, int32_t op = -1) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<Event> out;
    for (const Event& e : events) {
      if (e.record.kind == kind && (op < 0 || e.record.operation == op)) {
        out.push_back(e);
      }
    }
    return out;
  }
  void Clear() {
    if (buffer.handle != 0) rocprofiler_flush_buffer(buffer);
    std::lock_guard<std::mutex> lock(mutex);
    events.clear();
    dispatches.clear();
    copies.clear();
  }
};
Tool& T() {
  static Tool* tool = new Tool;
  return *tool;
}

int CollectArg(rocprofiler_callback_tracing_kind_t,
               rocprofiler_tracing_operation_t, uint32_t, const void* const,
               int32_t, const char*, const char* name, const char* value,
               int32_t, void* data) {
  auto* s = static_cast<std::string*>(data);
  *s += std::string(name) + "=" + value + ";";
  return 0;
}

void Callback(rocprofiler_callback_tracing_record_t record,
              rocprofiler_user_data_t* user, void*) {
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH &&
      record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE &&
      T().flush_on_complete.load()) {
    if (rocprofiler_flush_buffer(T().buffer) == ROCPROFILER_STATUS_SUCCESS) {
      T().flushes_on_complete.fetch_add(1);
    }
  }
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH &&
      record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE &&
      T().queue_on_complete.exchange(false)) {
    hsa_queue_t* q = nullptr;
    hsa_signal_t done{0};
    if (hsa_queue_create(T().gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0,
                         0, &q) == HSA_STATUS_SUCCESS &&
        hsa_signal_create(1, 0, nullptr, &done) == HSA_STATUS_SUCCESS) {
      T().queue_steps.fetch_add(1);
      gpu_test::Dispatch(q, T().kernel, T().kernarg, done);
      if (gpu_test::WaitZero(done) == 0) T().queue_steps.fetch_add(1);
      if (hsa_queue_destroy(q) == HSA_STATUS_SUCCESS) {
        T().queue_steps.fetch_add(1);
      }
      hsa_signal_destroy(done);
    }
  }
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH &&
      record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE &&
      T().destroy_on_complete.exchange(false)) {
    T().doomed_status = hsa_queue_destroy(T().doomed);
  }
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH &&
      record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE &&
      T().submit_on_complete.exchange(false)) {
    gpu_test::Dispatch(T().other_queue, T().kernel, T().kernarg,
                       T().other_done);
    T().submitted_on_complete.fetch_add(1);
  }
  Event e{};
  e.record = record;
  e.user_in = user->value;
  switch (record.kind) {
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH:
      e.dispatch =
          *static_cast<rocprofiler_callback_tracing_kernel_dispatch_data_t*>(
              record.payload);
      break;
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY:
      e.copy = *static_cast<rocprofiler_callback_tracing_memory_copy_data_t*>(
          record.payload);
      break;
    case ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT:
      if (record.operation == ROCPROFILER_CODE_OBJECT_LOAD) {
        e.load =
            *static_cast<rocprofiler_callback_tracing_code_object_load_data_t*>(
                record.payload);
        e.text = e.load.uri;
      } else {
        e.symbol = *static_cast<
            rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
            record.payload);
        e.text = e.symbol.kernel_name;
      }
      break;
    default:
      break;
  }
  if (record.kind != ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API) {
    rocprofiler_iterate_callback_tracing_kind_operation_args(
        record, &CollectArg, 1, &e.args);
  }
  std::lock_guard<std::mutex> lock(T().mutex);
  // A fresh value per ENTER (and per code-object event): it must come back
  // unchanged with EXIT and COMPLETE.
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    user->value = T().next_user++;
  }
  e.user_out = user->value;
  T().events.push_back(e);
}

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  std::lock_guard<std::mutex> lock(T().mutex);
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    if (headers[i]->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) {
      T().dispatches.push_back(
          *static_cast<rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
              headers[i]->payload));
    } else if (headers[i]->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY) {
      T().copies.push_back(
          *static_cast<rocprofiler_buffer_tracing_memory_copy_record_t*>(
              headers[i]->payload));
    }
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  Tool& t = T();
  if (rocprofiler_create_context(&t.context) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  // The same GPU work, also recorded in a buffer.
  t.buffer_status[0] = rocprofiler_create_buffer(
      t.context, 1 << 20, 1 << 16, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
      &BufferCallback, nullptr, &t.buffer);
  t.buffer_status[1] = rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0,
      t.buffer);
  t.buffer_status[2] = rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, nullptr, 0, t.buffer);
  const rocprofiler_callback_tracing_kind_t kinds[] = {
      ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
      ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
      ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT};
  for (int i = 0; i < 3; ++i) {
    t.configure_status[i] = rocprofiler_configure_callback_tracing_service(
        t.context, kinds[i], nullptr, 0, &Callback, nullptr);
  }
  rocprofiler_tracing_operation_t store =
      ROCPROFILER_HSA_CORE_API_ID_hsa_signal_store_screlease;
  rocprofiler_configure_callback_tracing_service(
      t.context, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, &store, 1,
      &Callback, nullptr);
  t.scratch_status = rocprofiler_configure_callback_tracing_service(
      t.context, ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY, nullptr, 0,
      &Callback, nullptr);
  return rocprofiler_start_context(t.context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                            : 1;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, "sdk_gpu_kinds_test");
}

uint64_t Now() {
  rocprofiler_timestamp_t t = 0;
  rocprofiler_get_timestamp(&t);
  return t;
}

class SdkGpuKinds : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(rocprofiler_force_configure(&Configure),
              ROCPROFILER_STATUS_SUCCESS);
  }
  void SetUp() override {
    T().Clear();
    ASSERT_TRUE(program_.Start());
    rocprofiler_get_thread_id(&tid_);
  }
  void TearDown() override {
    if (!stopped_) program_.Stop();
  }
  void Stop() {
    program_.Stop();
    stopped_ = true;
  }

  gpu_test::Program program_;
  rocprofiler_thread_id_t tid_ = 0;
  bool stopped_ = false;
};

TEST_F(SdkGpuKinds, ConfigurationStatuses) {
  for (rocprofiler_status_t s : T().configure_status) {
    EXPECT_EQ(s, ROCPROFILER_STATUS_SUCCESS) << rocprofiler_get_status_name(s);
  }
  for (rocprofiler_status_t s : T().buffer_status) {
    EXPECT_EQ(s, ROCPROFILER_STATUS_SUCCESS) << rocprofiler_get_status_name(s);
  }
  // Configured whatever the headers (sdk_memory_retirement_test checks its
  // callbacks where the runtime raises scratch events).
  EXPECT_EQ(T().scratch_status, ROCPROFILER_STATUS_SUCCESS);
}

// softhsa's agents (one CPU, SOFTHSA_GPU_COUNT = 1 gfx90a GPU) as the
// runtime answers them; IDs are the library's, not hsa_agent_t handles.
TEST_F(SdkGpuKinds, AvailableAgentsComeFromTheRuntime) {
  const auto agents = QueryAgents();
  ASSERT_EQ(agents.size(), 2u);
  const rocprofiler_agent_v0_t& cpu = agents[0];
  const rocprofiler_agent_v0_t& gpu = agents[1];
  EXPECT_EQ(cpu.type, ROCPROFILER_AGENT_TYPE_CPU);
  EXPECT_EQ(gpu.type, ROCPROFILER_AGENT_TYPE_GPU);
  EXPECT_EQ(cpu.node_id, 0u);
  EXPECT_EQ(gpu.node_id, 1u);
  EXPECT_EQ(cpu.logical_node_id, 0);
  EXPECT_EQ(gpu.logical_node_id, 1);
  EXPECT_EQ(gpu.logical_node_type_id, 0);
  EXPECT_STREQ(gpu.name, "gfx90a");
  EXPECT_EQ(gpu.gfx_target_version, 90010u);
  EXPECT_GT(gpu.cu_count, 0u);
  EXPECT_GT(gpu.wave_front_size, 0u);
  EXPECT_GT(gpu.workgroup_max_size, 0u);
  EXPECT_GT(gpu.mem_banks_count, 0u);
  ASSERT_NE(gpu.mem_banks, nullptr);
  EXPECT_GT(gpu.mem_banks[0].size_in_bytes, 0u);
  EXPECT_GT(cpu.cpu_cores_count, 0u);
  for (const auto& a : agents) {
    EXPECT_EQ(a.size, sizeof(rocprofiler_agent_v0_t));
    EXPECT_NE(a.id.handle, 0u);
    EXPECT_NE(a.id.handle, program_.gpu.handle);
    EXPECT_NE(a.id.handle, program_.cpu.handle);
    EXPECT_EQ(a.runtime_visibility.hsa, 1u);
  }
  EXPECT_NE(cpu.id.handle, gpu.id.handle);
}

TEST_F(SdkGpuKinds, AgentQueryStatuses) {
  std::vector<rocprofiler_agent_v0_t> a;
  EXPECT_EQ(rocprofiler_query_available_agents(
                ROCPROFILER_AGENT_INFO_VERSION_0, nullptr,
                sizeof(rocprofiler_agent_v0_t), &a),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rocprofiler_query_available_agents(
                ROCPROFILER_AGENT_INFO_VERSION_NONE, &CopyAgents,
                sizeof(rocprofiler_agent_v0_t), &a),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rocprofiler_query_available_agents(
                ROCPROFILER_AGENT_INFO_VERSION_0, &CopyAgents,
                sizeof(rocprofiler_agent_v0_t) - 8, &a),
            ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI);
  EXPECT_TRUE(a.empty());
}

TEST_F(SdkGpuKinds, CodeObjectLoadAndKernelSymbolsWithIdsThatLinkThem) {
  auto loads = T().Of(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                      ROCPROFILER_CODE_OBJECT_LOAD);
  auto symbols = T().Of(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                        ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER);
  ASSERT_EQ(loads.size(), 1u);
  const Event& load = loads[0];
  EXPECT_EQ(load.record.phase, ROCPROFILER_CALLBACK_PHASE_LOAD);
  EXPECT_EQ(load.load.size, sizeof(load.load));
  EXPECT_NE(load.load.code_object_id, ROCPROFILER_CODE_OBJECT_ID_NONE);
  EXPECT_EQ(load.load.agent_id.handle, SdkAgentId(program_.gpu));
  EXPECT_EQ(load.load.rocp_agent.handle, SdkAgentId(program_.gpu));
  EXPECT_EQ(load.load.hsa_agent.handle, program_.gpu.handle);
  EXPECT_NE(load.text.find("libgpu_kernels.so"), std::string::npos)
      << load.text;
  EXPECT_GT(load.load.load_size, 0u);
  EXPECT_NE(load.load.load_base, 0u);
  // The program loads it through a code object reader from a file.
  ASSERT_EQ(load.load.storage_type, ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE);
  EXPECT_EQ(load.load.storage_file, program_.kernels.fd);
  EXPECT_EQ(load.record.context_id.handle, T().context.handle);
  EXPECT_EQ(load.record.thread_id, tid_);

  std::map<std::string, Event> by_name;
  for (const Event& s : symbols) {
    EXPECT_EQ(s.record.phase, ROCPROFILER_CALLBACK_PHASE_LOAD);
    EXPECT_EQ(s.symbol.code_object_id, load.load.code_object_id);
    EXPECT_NE(s.symbol.kernel_id, 0u);
    by_name[s.text] = s;
  }
  ASSERT_EQ(by_name.size(), symbols.size()) << "kernel names are unique";
  ASSERT_TRUE(by_name.count("empty"));
  ASSERT_TRUE(by_name.count(
      "_ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj"));
  EXPECT_EQ(by_name["empty"].symbol.kernel_object, program_.empty);
  EXPECT_EQ(by_name["stamp"].symbol.kernel_object, program_.stamp);
  // Registers from stamp's kernel descriptor (gpu_kernels.cc declares 37
  // VGPRs, 10 accumulation VGPRs, 20 SGPRs; allocated on gfx90a: 40, 16,
  // 32).
  const auto& stamp = by_name["stamp"].symbol;
  EXPECT_EQ((std::vector<uint32_t>{stamp.arch_vgpr_count,
                                   stamp.accum_vgpr_count, stamp.sgpr_count}),
            (std::vector<uint32_t>{40, 16, 32}));
  std::vector<uint64_t> ids;
  for (const Event& s : symbols) ids.push_back(s.symbol.kernel_id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
  EXPECT_NE(by_name["empty"].args.find("kernel_name=empty;"), std::string::npos)
      << by_name["empty"].args;
  EXPECT_NE(load.args.find("code_object_id="), std::string::npos) << load.args;

  // Unloading reports the same IDs, symbols before their code object.
  T().Clear();
  Stop();
  auto unloads = T().Of(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT);
  ASSERT_EQ(unloads.size(), symbols.size() + 1);
  for (size_t i = 0; i < unloads.size(); ++i) {
    EXPECT_EQ(unloads[i].record.phase, ROCPROFILER_CALLBACK_PHASE_UNLOAD);
  }
  const Event& last = unloads.back();
  EXPECT_EQ(last.record.operation, ROCPROFILER_CODE_OBJECT_LOAD);
  EXPECT_EQ(last.load.code_object_id, load.load.code_object_id);
  EXPECT_EQ(unloads[0].record.operation,
            ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER);
}

TEST_F(SdkGpuKinds, DispatchEnqueueAndCompleteWithTheDocumentedFields) {
  uint64_t empty_id = 0;
  for (const Event& s :
       T().Of(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
              ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)) {
    if (s.text == "empty") empty_id = s.symbol.kernel_id;
  }
  ASSERT_NE(empty_id, 0u);
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  const uint64_t queue_id = q->id;
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().Clear();
  rocprofiler_user_data_t external{};
  external.value = 4242;
  ASSERT_EQ(
      rocprofiler_push_external_correlation_id(T().context, tid_, external),
      ROCPROFILER_STATUS_SUCCESS);
  const uint64_t t0 = Now();
  hsa_kernel_dispatch_packet_t p =
      hsa_test::DispatchPacket(program_.empty, program_.kernarg, 96, 32, done);
  p.grid_size_y = 2;
  p.private_segment_size = 64;
  p.group_segment_size = 512;
  hsa_test::Submit(q, &p);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  // The completion is reported by the tracer's completion thread; a flush
  // (here, destroying the queue) reports what has completed.
  hsa_queue_destroy(q);
  const uint64_t t1 = Now();
  rocprofiler_user_data_t popped{};
  rocprofiler_pop_external_correlation_id(T().context, tid_, &popped);

  auto stores = T().Of(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API);
  auto enqueue = T().Of(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                        ROCPROFILER_KERNEL_DISPATCH_ENQUEUE);
  auto complete = T().Of(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                         ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
  ASSERT_EQ(enqueue.size(), 2u);
  ASSERT_EQ(complete.size(), 1u);
  ASSERT_FALSE(stores.empty());
  const uint64_t store_id = stores.back().record.correlation_id.internal;
  EXPECT_NE(store_id, 0u);
  EXPECT_EQ(enqueue[0].record.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(enqueue[1].record.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_EQ(complete[0].record.phase, ROCPROFILER_CALLBACK_PHASE_NONE);
  const uint64_t user = enqueue[0].user_out;
  EXPECT_NE(user, 0u);
  EXPECT_EQ(enqueue[0].user_in, 0u);
  EXPECT_EQ(enqueue[1].user_in, user);
  EXPECT_EQ(complete[0].user_in, user);
  for (const Event& e : {enqueue[0], enqueue[1], complete[0]}) {
    const rocprofiler_kernel_dispatch_info_t& d = e.dispatch.dispatch_info;
    EXPECT_EQ(e.dispatch.size, sizeof(e.dispatch));
    EXPECT_EQ(d.size,
              offsetof(rocprofiler_kernel_dispatch_info_t, reserved_padding));
    EXPECT_EQ(d.agent_id.handle, SdkAgentId(program_.gpu));
    EXPECT_EQ(d.queue_id.handle, queue_id);
    EXPECT_EQ(d.kernel_id, empty_id);
    EXPECT_EQ(d.dispatch_id, enqueue[0].dispatch.dispatch_info.dispatch_id);
    EXPECT_EQ(d.grid_size.x, 96u);
    EXPECT_EQ(d.grid_size.y, 2u);
    EXPECT_EQ(d.grid_size.z, 1u);
    EXPECT_EQ(d.workgroup_size.x, 32u);
    EXPECT_EQ(d.private_segment_size, 64u);
    EXPECT_EQ(d.group_segment_size, 512u);
    EXPECT_EQ(e.record.correlation_id.internal, store_id);
    EXPECT_EQ(e.record.correlation_id.external.value, 4242u);
    EXPECT_EQ(e.record.context_id.handle, T().context.handle);
  }
  EXPECT_NE(enqueue[0].dispatch.dispatch_info.dispatch_id, 0u);
  EXPECT_EQ(enqueue[0].record.thread_id, tid_);
  EXPECT_EQ(enqueue[0].dispatch.start_timestamp, 0u);
  EXPECT_EQ(enqueue[0].dispatch.end_timestamp, 0u);
  EXPECT_LE(t0, complete[0].dispatch.start_timestamp);
  EXPECT_LE(complete[0].dispatch.start_timestamp,
            complete[0].dispatch.end_timestamp);
  EXPECT_LE(complete[0].dispatch.end_timestamp, t1);
  EXPECT_NE(complete[0].args.find("grid_size={96, 2, 1};"), std::string::npos)
      << complete[0].args;
  EXPECT_NE(complete[0].args.find("kernel_id=" + std::to_string(empty_id)),
            std::string::npos);
  // The buffer record: the completion's fields and correlation IDs, the
  // submitting thread.
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(T().mutex);
  ASSERT_EQ(T().dispatches.size(), 1u);
  const auto& b = T().dispatches[0];
  EXPECT_EQ(b.size, sizeof(b));
  EXPECT_EQ(b.kind, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
  EXPECT_EQ(b.operation, ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
  EXPECT_EQ(b.correlation_id.internal, store_id);
  EXPECT_EQ(b.correlation_id.external.value, 4242u);
  EXPECT_EQ(b.thread_id, tid_);
  EXPECT_EQ(b.start_timestamp, complete[0].dispatch.start_timestamp);
  EXPECT_EQ(b.end_timestamp, complete[0].dispatch.end_timestamp);
  EXPECT_EQ(0,
            std::memcmp(&b.dispatch_info, &complete[0].dispatch.dispatch_info,
                        sizeof(b.dispatch_info)));
  EXPECT_TRUE(T().copies.empty());
  hsa_signal_destroy(done);
}

// As Kineto collects GPU work: the application waits for its kernels (their
// completion signals), then the tool flushes its buffer once and reads what
// it has. Every dispatch that completed must be in the buffer when the flush
// returns (rocprofiler-sdk writes the record before the application sees the
// dispatch complete), not only those the tracer's completion thread had
// reported by then. Many rounds: the completion thread reports every
// millisecond, so a flush that relied on it misses some.
TEST_F(SdkGpuKinds, AFlushAfterTheApplicationWaitedDeliversEveryDispatch) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().Clear();
  constexpr int kRounds = 20, kPerRound = 3;
  int missing_rounds = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kPerRound; ++i) {
      hsa_signal_store_screlease(done, 1);
      gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
      ASSERT_EQ(gpu_test::WaitZero(done), 0);
    }
    ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);
    std::lock_guard<std::mutex> lock(T().mutex);
    if (T().dispatches.size() != size_t{kPerRound} * (round + 1)) {
      ++missing_rounds;
    }
  }
  EXPECT_EQ(missing_rounds, 0) << "rounds whose flush lacked dispatches that "
                                  "had completed";
  hsa_queue_destroy(q);
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(T().mutex);
    EXPECT_EQ(T().dispatches.size(), size_t{kRounds} * kPerRound);
  }
  hsa_signal_destroy(done);
}

// A tool may flush its buffer from a dispatch's COMPLETE callback (which
// runs while the tracer reports that dispatch): the flush returns, the
// dispatch completes for the application, and later flushes deliver it.
TEST_F(SdkGpuKinds, AFlushFromADispatchCallbackReturns) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().Clear();
  T().flushes_on_complete = 0;
  T().flush_on_complete = true;
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);
  T().flush_on_complete = false;
  EXPECT_EQ(T().flushes_on_complete.load(), 1);
  {
    std::lock_guard<std::mutex> lock(T().mutex);
    EXPECT_EQ(T().dispatches.size(), 1u);
  }
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// Waits (at most 20 s) until `n` dispatches were reported COMPLETE.
size_t AwaitCompletes(size_t n) {
  size_t seen = 0;
  for (int i = 0; i < 20000; ++i) {
    seen = T().Of(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                  ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
               .size();
    if (seen >= n) break;
    usleep(1000);
  }
  return seen;
}

// A COMPLETE callback (on the tracer's completion thread) that creates a
// queue, runs a kernel there and destroys the queue: all three return, and
// both dispatches are reported.
TEST_F(SdkGpuKinds, AQueueMadeAndDestroyedInACompleteCallback) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().gpu = program_.gpu;
  T().kernel = program_.empty;
  T().kernarg = program_.kernarg;
  T().queue_steps = 0;
  T().Clear();
  T().queue_on_complete = true;
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  EXPECT_EQ(AwaitCompletes(2), 2u);
  EXPECT_EQ(T().queue_steps.load(), 3);
  EXPECT_FALSE(T().queue_on_complete.load());
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// A COMPLETE callback that destroys another traced queue, one the harvest
// reporting it is about to look at too: the destruction returns, the
// queue's dispatch is reported once, and tracing goes on.
TEST_F(SdkGpuKinds, AnotherQueueDestroyedInACompleteCallback) {
  hsa_queue_t* q = program_.Queue();
  hsa_queue_t* doomed = program_.Queue();
  ASSERT_NE(q, nullptr);
  ASSERT_NE(doomed, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().doomed = doomed;
  T().doomed_status = -1;
  T().Clear();
  gpu_test::Dispatch(doomed, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  hsa_signal_store_relaxed(done, 1);
  T().destroy_on_complete = true;
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  EXPECT_EQ(AwaitCompletes(2), 2u);
  for (int i = 0; i < 2000 && T().doomed_status.load() == -1; ++i) {
    usleep(1000);
  }
  EXPECT_EQ(T().doomed_status.load(), HSA_STATUS_SUCCESS);
  // Still traced after: one more dispatch is reported.
  hsa_signal_store_relaxed(done, 1);
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  EXPECT_EQ(AwaitCompletes(3), 3u);
  usleep(20000);
  EXPECT_EQ(T().Of(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                   ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
                .size(),
            3u);
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// A COMPLETE callback that submits a dispatch to another traced queue: the
// submission returns, and that dispatch is traced and reported too.
TEST_F(SdkGpuKinds, ADispatchSubmittedFromACompleteCallback) {
  hsa_queue_t* q = program_.Queue();
  hsa_queue_t* other = program_.Queue();
  ASSERT_NE(q, nullptr);
  ASSERT_NE(other, nullptr);
  hsa_signal_t done, other_done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &other_done), HSA_STATUS_SUCCESS);
  T().kernel = program_.empty;
  T().kernarg = program_.kernarg;
  T().other_queue = other;
  T().other_done = other_done;
  T().submitted_on_complete = 0;
  T().Clear();
  T().submit_on_complete = true;
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  EXPECT_EQ(gpu_test::WaitZero(other_done), 0);
  // The second COMPLETE comes after the callback that submitted it returned.
  EXPECT_EQ(AwaitCompletes(2), 2u);
  EXPECT_EQ(T().submitted_on_complete.load(), 1);
  const std::vector<Event> enters =
      T().Of(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
             ROCPROFILER_KERNEL_DISPATCH_ENQUEUE);
  ASSERT_EQ(enters.size(), 4u);  // ENTER and EXIT of each
  EXPECT_EQ(enters[2].record.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(enters[2].dispatch.dispatch_info.queue_id.handle, other->id);
  hsa_queue_destroy(q);
  hsa_queue_destroy(other);
  hsa_signal_destroy(done);
  hsa_signal_destroy(other_done);
}

TEST_F(SdkGpuKinds, CopyEnterAtSubmissionExitWithTimes) {
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  std::vector<char> src(1000, 'x'), dst(1000, 0);
  T().Clear();
  const uint64_t t0 = Now();
  ASSERT_EQ(
      hsa_amd_memory_async_copy(dst.data(), program_.gpu, src.data(),
                                program_.cpu, src.size(), 0, nullptr, done),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  // Copies are reported as they complete; give the completion thread time.
  std::vector<Event> copies;
  for (int i = 0; i < 2000 && copies.size() < 2; ++i) {
    copies = T().Of(ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY);
    if (copies.size() < 2) usleep(1000);
  }
  const uint64_t t1 = Now();
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0].record.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(copies[1].record.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_NE(copies[0].user_out, 0u);
  EXPECT_EQ(copies[1].user_in, copies[0].user_out);
  for (const Event& e : copies) {
    EXPECT_EQ(e.record.operation, ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE);
    EXPECT_EQ(e.copy.size, sizeof(e.copy));
    EXPECT_EQ(e.copy.bytes, 1000u);
    EXPECT_EQ(e.copy.dst_agent_id.handle, SdkAgentId(program_.gpu));
    EXPECT_EQ(e.copy.src_agent_id.handle, SdkAgentId(program_.cpu));
    EXPECT_EQ(e.copy.dst_address.ptr, dst.data());
    EXPECT_EQ(e.copy.src_address.ptr, src.data());
    EXPECT_EQ(e.record.correlation_id.internal,
              copies[0].record.correlation_id.internal);
  }
  EXPECT_EQ(copies[0].record.thread_id, tid_);
  EXPECT_EQ(copies[0].copy.start_timestamp, 0u);
  EXPECT_LE(t0, copies[1].copy.start_timestamp);
  EXPECT_LE(copies[1].copy.start_timestamp, copies[1].copy.end_timestamp);
  EXPECT_LE(copies[1].copy.end_timestamp, t1);
  EXPECT_NE(copies[1].args.find("bytes=1000;"), std::string::npos)
      << copies[1].args;
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(T().mutex);
  ASSERT_EQ(T().copies.size(), 1u);
  const auto& b = T().copies[0];
  EXPECT_EQ(b.size, sizeof(b));
  EXPECT_EQ(b.kind, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY);
  EXPECT_EQ(b.operation, ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE);
  EXPECT_EQ(b.correlation_id.internal,
            copies[0].record.correlation_id.internal);
  EXPECT_EQ(b.thread_id, tid_);
  EXPECT_EQ(b.bytes, 1000u);
  EXPECT_EQ(b.dst_agent_id.handle, SdkAgentId(program_.gpu));
  EXPECT_EQ(b.src_agent_id.handle, SdkAgentId(program_.cpu));
  EXPECT_EQ(b.dst_address.ptr, dst.data());
  EXPECT_EQ(b.src_address.ptr, src.data());
  EXPECT_EQ(b.start_timestamp, copies[1].copy.start_timestamp);
  EXPECT_EQ(b.end_timestamp, copies[1].copy.end_timestamp);
  EXPECT_TRUE(T().dispatches.empty());
  hsa_signal_destroy(done);
}

TEST_F(SdkGpuKinds, NamesOfTheGpuKindsAndTheirOperations) {
  struct {
    rocprofiler_callback_tracing_kind_t kind;
    const char* name;
    std::vector<std::string> ops;
  } expected[] = {
      {ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
       "KERNEL_DISPATCH",
       {"KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"}},
      {ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
       "MEMORY_COPY",
       {"MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE",
        "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE"}},
      {ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
       "CODE_OBJECT",
       {"CODE_OBJECT_LOAD", "CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER",
        "CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER"}},
  };
  for (const auto& k : expected) {
    const char* name = nullptr;
    ASSERT_EQ(
        rocprofiler_query_callback_tracing_kind_name(k.kind, &name, nullptr),
        ROCPROFILER_STATUS_SUCCESS);
    EXPECT_STREQ(name, k.name);
    for (size_t op = 0; op < k.ops.size(); ++op) {
      uint64_t len = 0;
      ASSERT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                    k.kind, static_cast<int32_t>(op + 1), &name, &len),
                ROCPROFILER_STATUS_SUCCESS);
      EXPECT_EQ(name, k.ops[op]);
      EXPECT_EQ(len, k.ops[op].size());
    }
  }
}

}  // namespace
