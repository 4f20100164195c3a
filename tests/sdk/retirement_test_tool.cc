#include "tests/sdk/retirement_test_tool.h"

#include <sched.h>

#include <atomic>
#include <chrono>
#include <utility>

#include "ext/prof_protocol.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/tool_configure.h"

namespace retirement_tool {

namespace gpu = roctracer::gpu;

namespace {

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kOp = HSA_API_ID_hsa_system_get_info;

// What ForceConfigure's tool initializes.
rocprofiler_buffer_tracing_cb_t g_callback = nullptr;
rocprofiler_context_id_t* g_ctx = nullptr;
rocprofiler_buffer_id_t* g_buffer = nullptr;
rocprofiler_status_t* g_init_status = nullptr;

int ToolInit(rocprofiler_client_finalize_t, void*) {
  *g_init_status = CreateTracing(2048, g_callback, nullptr, g_ctx, g_buffer);
  return *g_init_status == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

const char* g_name = nullptr;

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, g_name);
}

std::mutex g_hook_mutex;
std::function<void()> g_in_delivery;  // run once, in the next delivery

std::atomic<bool> g_parked{false};
std::atomic<bool> g_release{false};

}  // namespace

rocprofiler_status_t ForceConfigure(const char* name,
                                    rocprofiler_buffer_tracing_cb_t callback,
                                    rocprofiler_context_id_t* ctx,
                                    rocprofiler_buffer_id_t* buffer,
                                    rocprofiler_status_t* init_status) {
  g_name = name;
  g_callback = callback;
  g_ctx = ctx;
  g_buffer = buffer;
  g_init_status = init_status;
  return rocprofiler_force_configure(&ToolConfigure);
}

void RunOnceInDelivery(std::function<void()> fn) {
  std::lock_guard<std::mutex> lock(g_hook_mutex);
  g_in_delivery = std::move(fn);
}

void InDelivery() {
  std::function<void()> hook;
  {
    std::lock_guard<std::mutex> lock(g_hook_mutex);
    hook.swap(g_in_delivery);
  }
  if (hook) hook();
}

void ParkNextDelivery() {
  RunOnceInDelivery([] {
    g_parked = true;
    while (!g_release.load()) sched_yield();
  });
}

bool WaitParked() {
  for (int i = 0; i < 5000 && !g_parked.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return g_parked.load();
}

void ReleaseDelivery() { g_release = true; }

rocprofiler_status_t CreateTracing(size_t watermark,
                                   rocprofiler_buffer_tracing_cb_t callback,
                                   void* data, rocprofiler_context_id_t* ctx,
                                   rocprofiler_buffer_id_t* buffer) {
  rocprofiler_status_t status = rocprofiler_create_context(ctx);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  status = rocprofiler_create_buffer(*ctx, 64 * watermark, watermark,
                                     ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                     callback, data, buffer);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
                    ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
                    ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT}) {
    status = rocprofiler_configure_buffer_tracing_service(*ctx, kind, nullptr,
                                                          0, *buffer);
    if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  }
  return status;
}

uint64_t RecordId(const rocprofiler_record_header_t* header) {
  switch (header->kind) {
    case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
      return static_cast<
                 rocprofiler_buffer_tracing_correlation_id_retirement_record_t*>(
                 header->payload)
          ->internal_correlation_id;
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY:
      return static_cast<rocprofiler_buffer_tracing_memory_copy_record_t*>(
                 header->payload)
          ->correlation_id.internal;
    default:
      return static_cast<rocprofiler_buffer_tracing_hsa_api_record_t*>(
                 header->payload)
          ->correlation_id.internal;
  }
}

gpu::Observer* SdkObserver() {
  gpu::Observer* found = nullptr;
  gpu::ForEachObserver([&found](gpu::Observer* o) { found = o; });
  return found;
}

void Enter(uint64_t corr) {
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, kOp, ACTIVITY_API_PHASE_ENTER, corr, &d);
}

void Exit(uint64_t corr) {
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, kOp, ACTIVITY_API_PHASE_EXIT, corr, &d);
}

void Call(uint64_t corr) {
  Enter(corr);
  Exit(corr);
}

uint64_t SubmitCopy(uint64_t corr, uint64_t op_id) {
  gpu::EnqueueInfo info{};
  info.kind = gpu::OpKind::kCopy;
  info.op_id = op_id;
  info.correlation_id = corr;
  info.bytes = 64;
  info.direction = 1;
  return SdkObserver()->OnEnqueue(info);
}

uint64_t CallWithCopy(uint64_t corr, uint64_t op_id) {
  // One api data for both phases, as the interception layer passes.
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, kOp, ACTIVITY_API_PHASE_ENTER, corr, &d);
  const uint64_t cookie = SubmitCopy(corr, op_id);
  fake_seam::Call(kHsa, kOp, ACTIVITY_API_PHASE_EXIT, corr, &d);
  return cookie;
}

void CompleteCopy(uint64_t corr, uint64_t op_id, uint64_t cookie) {
  gpu::CopyRecord r{};
  r.op_id = op_id;
  r.correlation_id = corr;
  r.bytes = 64;
  r.direction = 1;
  r.begin_ns = 1;
  r.end_ns = 2;
  SdkObserver()->OnCopy(r, cookie);
}

Worker::Worker() : thread_([this] { Main(); }) {}

Worker::~Worker() {
  Run([this] { done_ = true; });
  thread_.join();
}

void Worker::Run(std::function<void()> fn) {
  std::unique_lock<std::mutex> lock(mu_);
  job_ = std::move(fn);
  cv_.notify_all();
  cv_.wait(lock, [this] { return !job_; });
}

void Worker::Main() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!done_) {
    cv_.wait(lock, [this] { return static_cast<bool>(job_); });
    std::function<void()> fn = job_;
    lock.unlock();
    fn();
    lock.lock();
    job_ = nullptr;
    cv_.notify_all();
  }
}

}  // namespace retirement_tool
