// A HIP + HSA application that finds the tracer at run time (dlsym of the
// roctracer API in the global scope), so the same source runs with
// libroctracer64.so linked ahead of the runtimes or under LD_PRELOAD.
// Checks what a user would check and prints, for each HIP call it saw
// complete, "TRACE <name> <error name>" (compared against libamdhip64's own
// AMD_LOG_LEVEL=3 log by interposition_test.py). Exit 0 when every check
// passed, 1 on a failed check, 2 when no tracer is present.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "tests/intercept/trace_probe_support.h"

namespace {

using trace_probe::g_api;
using trace_probe::g_events;
using trace_probe::g_records;

void Callback(uint32_t domain, uint32_t op, const void* callback_data, void*) {
  if (domain == ACTIVITY_DOMAIN_HSA_API) {
    trace_probe::KeepHsaEvent(op, callback_data);
    return;
  }
  const auto* d = static_cast<const hip_api_data_t*>(callback_data);
  trace_probe::Event e = trace_probe::EventOf(domain, op, d);
  if (d->phase == ACTIVITY_API_PHASE_EXIT &&
      op != HIP_API_ID_hipGetErrorString) {
    e.result = d->hipError_t_retval;
  }
  // A callback calling traced APIs: they must run, untraced, and not
  // recurse into this callback.
  if (op == HIP_API_ID_hipGetDeviceCount &&
      d->phase == ACTIVITY_API_PHASE_ENTER) {
    const char* text = nullptr;
    hsa_status_string(HSA_STATUS_ERROR, &text);
    CHECK(hipGetErrorName(hipErrorNoDevice) != nullptr);
  }
  trace_probe::Keep(e);
}

const trace_probe::Event* FindEvent(uint32_t domain, uint32_t op,
                                    uint32_t phase, size_t from = 0) {
  for (size_t i = from; i < g_events.size(); ++i) {
    const trace_probe::Event& e = g_events[i];
    if (e.domain == domain && e.op == op && e.phase == phase) return &e;
  }
  return nullptr;
}

}  // namespace

int main() {
  if (!trace_probe::FindTracer()) {
    std::printf("NO_TRACER\n");
    return 2;
  }
  trace_probe::StartTracing({ACTIVITY_DOMAIN_HIP_API, ACTIVITY_DOMAIN_HSA_API},
                            &Callback);

  const hsa_status_t init = hsa_init();
  uint16_t major = 0;
  const hsa_status_t info =
      hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  int count = -1;
  const hipError_t count_status = hipGetDeviceCount(&count);
  const char* count_text = hipGetErrorString(count_status);
  void* ptr = nullptr;
  const hipError_t malloc_status = hipMalloc(&ptr, 4096);
  char host[64] = {};
  const hipError_t copy_status =
      hipMemcpy(ptr, host, sizeof(host), hipMemcpyHostToDevice);
  const hipError_t free_status = hipFree(ptr);
  int version = 0;
  const hipError_t version_status = hipRuntimeGetVersion(&version);

  trace_probe::StopTracing({ACTIVITY_DOMAIN_HIP_API, ACTIVITY_DOMAIN_HSA_API});

  // The application sees the runtimes' real answers.
  CHECK(init == HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  CHECK(info == HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK(count_status == hipErrorNoDevice && count == 0);
  CHECK(count_text != nullptr &&
        std::strcmp(count_text, "hipErrorNoDevice") == 0);
  CHECK(malloc_status == hipErrorInvalidDevice);
  CHECK(copy_status == hipErrorInvalidDevice);
  CHECK(free_status == hipErrorInvalidDevice);
  CHECK(version_status == hipSuccess && version > 0);

  std::lock_guard<std::mutex> lock(trace_probe::g_mutex);
  // The tracer saw the same answers.
  const trace_probe::Event* e = FindEvent(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init, ACTIVITY_API_PHASE_EXIT);
  CHECK(e != nullptr && e->result == init);
  e = FindEvent(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                ACTIVITY_API_PHASE_EXIT);
  CHECK(e != nullptr && e->result == info);
  e = FindEvent(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetDeviceCount,
                ACTIVITY_API_PHASE_EXIT);
  CHECK(e != nullptr && e->result == hipErrorNoDevice);
  e = FindEvent(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMalloc,
                ACTIVITY_API_PHASE_EXIT);
  CHECK(e != nullptr && e->result == malloc_status);

  // Calls made by the callback were not traced.
  CHECK(FindEvent(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorName,
                  ACTIVITY_API_PHASE_ENTER) == nullptr);
  size_t status_strings = 0;
  for (const trace_probe::Event& ev : g_events) {
    status_strings += ev.domain == ACTIVITY_DOMAIN_HSA_API &&
                      ev.op == HSA_API_ID_hsa_status_string;
  }
  CHECK(status_strings == 0);

  // Every ENTER has its EXIT, strictly nested; calls libamdhip64 makes into
  // HSA while serving hipGetDeviceCount are traced inside it.
  std::vector<const trace_probe::Event*> stack;
  std::map<uint64_t, uint64_t> parent_of;  // correlation ID -> enclosing call's
  bool hsa_inside_hip = false;
  for (const trace_probe::Event& ev : g_events) {
    if (ev.phase == ACTIVITY_API_PHASE_ENTER) {
      if (!stack.empty() && stack.back()->domain == ACTIVITY_DOMAIN_HIP_API &&
          stack.back()->op == HIP_API_ID_hipGetDeviceCount &&
          ev.domain == ACTIVITY_DOMAIN_HSA_API) {
        hsa_inside_hip = true;
      }
      if (!stack.empty()) parent_of[ev.id] = stack.back()->id;
      stack.push_back(&ev);
    } else {
      CHECK(!stack.empty());
      if (stack.empty()) break;
      CHECK(stack.back()->id == ev.id && stack.back()->op == ev.op &&
            stack.back()->domain == ev.domain);
      stack.pop_back();
    }
  }
  CHECK(stack.empty());
  CHECK(hsa_inside_hip);

  // One API activity record per traced call, under the callbacks' IDs.
  size_t enters = 0;
  for (const trace_probe::Event& ev : g_events)
    enters += ev.phase == ACTIVITY_API_PHASE_ENTER;
  size_t api_records = 0;
  for (const activity_record_t& r : g_records) {
    if (r.domain != ACTIVITY_DOMAIN_HIP_API &&
        r.domain != ACTIVITY_DOMAIN_HSA_API) {
      continue;
    }
    ++api_records;
    bool matched = false;
    for (const trace_probe::Event& ev : g_events) {
      matched |= ev.phase == ACTIVITY_API_PHASE_ENTER &&
                 ev.id == r.correlation_id && ev.op == r.op &&
                 ev.domain == r.domain;
    }
    CHECK(matched);
    CHECK(r.begin_ns <= r.end_ns);
  }
  CHECK(api_records == enters);

  // A nested call's record lies inside its parent's: one thread, one clock.
  std::map<uint64_t, const activity_record_t*> record_of;
  for (const activity_record_t& r : g_records) {
    if (r.domain == ACTIVITY_DOMAIN_HIP_API ||
        r.domain == ACTIVITY_DOMAIN_HSA_API) {
      record_of[r.correlation_id] = &r;
    }
  }
  size_t nested = 0;
  for (const auto& [child, parent] : parent_of) {
    const auto c = record_of.find(child);
    const auto p = record_of.find(parent);
    CHECK(c != record_of.end() && p != record_of.end());
    if (c == record_of.end() || p == record_of.end()) continue;
    CHECK(p->second->begin_ns <= c->second->begin_ns);
    CHECK(c->second->end_ns <= p->second->end_ns);
    ++nested;
  }
  CHECK(nested > 0);

  for (const trace_probe::Event& ev : g_events) {
    if (ev.domain != ACTIVITY_DOMAIN_HIP_API ||
        ev.phase != ACTIVITY_API_PHASE_EXIT ||
        ev.op == HIP_API_ID_hipGetErrorString) {
      continue;
    }
    std::printf("TRACE %s %s\n", g_api.op_string(ev.domain, ev.op, 0),
                hipGetErrorName(static_cast<hipError_t>(ev.result)));
  }
  std::printf("EVENTS %zu RECORDS %zu FAILURES %d\n", g_events.size(),
              api_records, trace_probe::g_failures);
  return trace_probe::g_failures == 0 ? 0 : 1;
}
