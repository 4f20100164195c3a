// What the trace probes share (trace_probe.cc, tests/kfd/kfd_probe.cc):
// programs that find the tracer at run time (dlsym of the roctracer API in
// the global scope), so one source runs with libroctracer64.so linked ahead
// of the runtimes or under LD_PRELOAD; they keep every callback event and
// activity record of the domains they trace and count failed checks.
#ifndef TESTS_INTERCEPT_TRACE_PROBE_SUPPORT_H_
#define TESTS_INTERCEPT_TRACE_PROBE_SUPPORT_H_

#include <dlfcn.h>
#include <roctracer.h>
#include <roctracer_hsa.h>

#include <cstdio>
#include <initializer_list>
#include <mutex>
#include <vector>

namespace trace_probe {

struct Event {
  uint32_t domain;
  uint32_t op;
  uint32_t phase;
  uint64_t id;
  int64_t result;
};

inline std::mutex g_mutex;
inline std::vector<Event> g_events;
inline std::vector<activity_record_t> g_records;
inline int g_failures = 0;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "CHECK failed at line %d: %s\n", __LINE__, #cond); \
      ++trace_probe::g_failures;                                              \
    }                                                                         \
  } while (0)

struct Api {
  decltype(&roctracer_enable_domain_callback) enable_callback;
  decltype(&roctracer_enable_domain_activity) enable_activity;
  decltype(&roctracer_enable_op_callback) enable_op_callback;
  decltype(&roctracer_enable_op_activity) enable_op_activity;
  decltype(&roctracer_disable_domain_callback) disable_callback;
  decltype(&roctracer_disable_domain_activity) disable_activity;
  decltype(&roctracer_open_pool) open_pool;
  decltype(&roctracer_close_pool) close_pool;
  decltype(&roctracer_next_record) next_record;
  decltype(&roctracer_op_string) op_string;
  decltype(&roctracer_op_code) op_code;
};
inline Api g_api;

template <class Fn>
bool Find(Fn* fn, const char* name) {
  *fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
  return *fn != nullptr;
}

// False when no tracer is in the process.
inline bool FindTracer() {
  return Find(&g_api.enable_callback, "roctracer_enable_domain_callback") &&
         Find(&g_api.enable_activity, "roctracer_enable_domain_activity") &&
         Find(&g_api.enable_op_callback, "roctracer_enable_op_callback") &&
         Find(&g_api.enable_op_activity, "roctracer_enable_op_activity") &&
         Find(&g_api.disable_callback, "roctracer_disable_domain_callback") &&
         Find(&g_api.disable_activity, "roctracer_disable_domain_activity") &&
         Find(&g_api.open_pool, "roctracer_open_pool") &&
         Find(&g_api.close_pool, "roctracer_close_pool") &&
         Find(&g_api.next_record, "roctracer_next_record") &&
         Find(&g_api.op_string, "roctracer_op_string") &&
         Find(&g_api.op_code, "roctracer_op_code");
}

// The event of a callback's data (hip_api_data_t, hsa_api_data_t, ...),
// without its result.
template <class Data>
Event EventOf(uint32_t domain, uint32_t op, const Data* data) {
  return Event{domain, op, data->phase, data->correlation_id, 0};
}

inline void Keep(const Event& e) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(e);
}

// Keeps an HSA_API callback's event, with the call's status at EXIT.
inline void KeepHsaEvent(uint32_t op, const void* callback_data) {
  const auto* d = static_cast<const hsa_api_data_t*>(callback_data);
  Event e = EventOf(ACTIVITY_DOMAIN_HSA_API, op, d);
  if (d->phase == ACTIVITY_API_PHASE_EXIT) e.result = d->hsa_status_t_retval;
  Keep(e);
}

inline void Collect(const char* begin, const char* end, void*) {
  const auto* r = reinterpret_cast<const activity_record_t*>(begin);
  const auto* last = reinterpret_cast<const activity_record_t*>(end);
  std::lock_guard<std::mutex> lock(g_mutex);
  while (r < last) {
    g_records.push_back(*r);
    if (g_api.next_record(r, &r) != ROCTRACER_STATUS_SUCCESS) break;
  }
}

// Opens a pool keeping every record, and enables `callback` and activity
// for each domain: the domain, then every op by its ID (a domain-wide enable
// leaves out the HIP APIs HIP's own record does not number).
inline void StartTracing(std::initializer_list<activity_domain_t> domains,
                         activity_rtapi_callback_t callback) {
  roctracer_properties_t properties{};
  properties.buffer_size = 1 << 16;
  properties.buffer_callback_fun = &Collect;
  CHECK(g_api.open_pool(&properties) == ROCTRACER_STATUS_SUCCESS);
  for (activity_domain_t domain : domains) {
    CHECK(g_api.enable_callback(domain, callback, nullptr) ==
          ROCTRACER_STATUS_SUCCESS);
    CHECK(g_api.enable_activity(domain) == ROCTRACER_STATUS_SUCCESS);
    for (uint32_t op = 0;
         g_api.enable_op_callback(domain, op, callback, nullptr) ==
         ROCTRACER_STATUS_SUCCESS;
         ++op) {
      CHECK(g_api.enable_op_activity(domain, op) == ROCTRACER_STATUS_SUCCESS);
    }
  }
}

// Disables the domains and closes the pool (delivering every record).
inline void StopTracing(std::initializer_list<activity_domain_t> domains) {
  for (activity_domain_t domain : domains) {
    g_api.disable_callback(domain);
    g_api.disable_activity(domain);
  }
  CHECK(g_api.close_pool() == ROCTRACER_STATUS_SUCCESS);
}

}  // namespace trace_probe

#endif  // TESTS_INTERCEPT_TRACE_PROBE_SUPPORT_H_
