// An HSA application that finds the tracer at run time (dlsym of the
// roctracer API in the global scope), so the same source runs with
// libroctracer64.so linked ahead of the runtimes or under LD_PRELOAD.
// It traces KFD_API and HSA_API (callbacks and activity) around hsa_init,
// which makes real libhsakmt calls that fail here (no /dev/kfd), and checks
// what a user would: every KFD call is traced with the return code the real
// libhsakmt gives, nested inside hsa_init (its ENTER/EXIT and its record's
// time span), with arguments the generated printers can show. Prints
// "KFD <name> <status>" per traced KFD call. Exit 0 when every check passed,
// 1 on a failed check, 2 when no tracer is present.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hsa.h>
#include <roctracer_kfd.h>

#include <cstdio>
#include <cstring>
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
  const auto* d = static_cast<const kfd_api_data_t*>(callback_data);
  trace_probe::Event e = trace_probe::EventOf(domain, op, d);
  if (d->phase == ACTIVITY_API_PHASE_EXIT) e.result = d->HSAKMT_STATUS_retval;
  trace_probe::Keep(e);
}

const activity_record_t* RecordOf(uint32_t domain, uint64_t id) {
  for (const activity_record_t& r : g_records) {
    if (r.domain == domain && r.correlation_id == id) return &r;
  }
  return nullptr;
}

}  // namespace

int main() {
  if (!trace_probe::FindTracer()) {
    std::printf("NO_TRACER\n");
    return 2;
  }
  // The domain's names and IDs are the generated ones.
  const char* name =
      g_api.op_string(ACTIVITY_DOMAIN_KFD_API, KFD_API_ID_hsaKmtOpenKFD, 0);
  CHECK(name != nullptr && std::strcmp(name, "hsaKmtOpenKFD") == 0);
  uint32_t op = 0;
  CHECK(g_api.op_code(ACTIVITY_DOMAIN_KFD_API, "hsaKmtCloseKFD", &op,
                      nullptr) == ROCTRACER_STATUS_SUCCESS &&
        op == KFD_API_ID_hsaKmtCloseKFD);

  trace_probe::StartTracing({ACTIVITY_DOMAIN_KFD_API, ACTIVITY_DOMAIN_HSA_API},
                            &Callback);
  const hsa_status_t init = hsa_init();
  trace_probe::StopTracing({ACTIVITY_DOMAIN_KFD_API, ACTIVITY_DOMAIN_HSA_API});
  CHECK(init == HSA_STATUS_ERROR_OUT_OF_RESOURCES);

  // The real libhsakmt's answer, asked directly (not through any stub):
  // what the traced hsaKmtOpenKFD inside hsa_init must have returned.
  void* kmt = dlopen("libhsakmt.so.1", RTLD_NOW | RTLD_NOLOAD);
  CHECK(kmt != nullptr);
  using OpenFn = HSAKMT_STATUS (*)();
  auto real_open =
      kmt ? reinterpret_cast<OpenFn>(dlsym(kmt, "hsaKmtOpenKFD")) : nullptr;
  CHECK(real_open != nullptr);
  const HSAKMT_STATUS direct =
      real_open != nullptr ? real_open() : HSAKMT_STATUS_SUCCESS;
  CHECK(direct != HSAKMT_STATUS_SUCCESS);  // no /dev/kfd here

  std::lock_guard<std::mutex> lock(trace_probe::g_mutex);
  // Strict nesting; every KFD call lies inside hsa_init.
  std::vector<const trace_probe::Event*> stack;
  uint64_t init_id = 0;
  size_t kfd_calls = 0, kfd_inside_init = 0, opens = 0;
  for (const trace_probe::Event& ev : g_events) {
    if (ev.phase == ACTIVITY_API_PHASE_ENTER) {
      if (ev.domain == ACTIVITY_DOMAIN_HSA_API &&
          ev.op == HSA_API_ID_hsa_init) {
        init_id = ev.id;
      }
      if (ev.domain == ACTIVITY_DOMAIN_KFD_API) {
        ++kfd_calls;
        const bool inside = !stack.empty() &&
                            stack.front()->domain == ACTIVITY_DOMAIN_HSA_API &&
                            stack.front()->op == HSA_API_ID_hsa_init;
        kfd_inside_init += inside;
      }
      stack.push_back(&ev);
      continue;
    }
    CHECK(!stack.empty());
    if (stack.empty()) break;
    CHECK(stack.back()->id == ev.id && stack.back()->op == ev.op &&
          stack.back()->domain == ev.domain);
    stack.pop_back();
    if (ev.domain == ACTIVITY_DOMAIN_KFD_API) {
      if (ev.op == KFD_API_ID_hsaKmtOpenKFD) {
        ++opens;
        CHECK(ev.result == direct);
      }
      std::printf("KFD %s %lld\n",
                  g_api.op_string(ACTIVITY_DOMAIN_KFD_API, ev.op, 0),
                  static_cast<long long>(ev.result));
    }
  }
  CHECK(stack.empty());
  CHECK(init_id != 0);
  CHECK(opens >= 1);
  CHECK(kfd_calls > 0 && kfd_inside_init == kfd_calls);

  // One KFD activity record per traced KFD call, under its callback's ID,
  // inside hsa_init's record.
  const activity_record_t* init_record =
      RecordOf(ACTIVITY_DOMAIN_HSA_API, init_id);
  CHECK(init_record != nullptr);
  size_t kfd_records = 0;
  for (const activity_record_t& r : g_records) {
    if (r.domain != ACTIVITY_DOMAIN_KFD_API) continue;
    ++kfd_records;
    bool matched = false;
    for (const trace_probe::Event& ev : g_events) {
      matched |= ev.domain == ACTIVITY_DOMAIN_KFD_API &&
                 ev.id == r.correlation_id && ev.op == r.op &&
                 ev.phase == ACTIVITY_API_PHASE_ENTER;
    }
    CHECK(matched);
    CHECK(r.correlation_id >
          init_id);  // taken after hsa_init's, on this thread
    if (init_record != nullptr) {
      CHECK(init_record->begin_ns <= r.begin_ns &&
            r.end_ns <= init_record->end_ns);
    }
  }
  CHECK(kfd_records == kfd_calls);
  std::printf("KFD_CALLS %zu RECORDS %zu FAILURES %d\n", kfd_calls, kfd_records,
              trace_probe::g_failures);
  return trace_probe::g_failures == 0 ? 0 : 1;
}
