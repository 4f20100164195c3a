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

namespace {

struct Event {
  uint32_t domain;
  uint32_t op;
  uint32_t phase;
  uint64_t id;
  int64_t result;
};

std::mutex g_mutex;
std::vector<Event> g_events;
std::vector<activity_record_t> g_records;
int g_failures = 0;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "CHECK failed at line %d: %s\n", __LINE__, #cond); \
      ++g_failures;                                                           \
    }                                                                         \
  } while (0)

struct Api {
  decltype(&roctracer_enable_domain_callback) enable_callback;
  decltype(&roctracer_enable_domain_activity) enable_activity;
  decltype(&roctracer_disable_domain_callback) disable_callback;
  decltype(&roctracer_disable_domain_activity) disable_activity;
  decltype(&roctracer_open_pool) open_pool;
  decltype(&roctracer_close_pool) close_pool;
  decltype(&roctracer_next_record) next_record;
  decltype(&roctracer_op_string) op_string;
  decltype(&roctracer_op_code) op_code;
} g_api;

template <class Fn>
bool Find(Fn* fn, const char* name) {
  *fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
  return *fn != nullptr;
}

void Callback(uint32_t domain, uint32_t op, const void* callback_data, void*) {
  Event e{domain, op, 0, 0, 0};
  if (domain == ACTIVITY_DOMAIN_KFD_API) {
    const auto* d = static_cast<const kfd_api_data_t*>(callback_data);
    e.phase = d->phase;
    e.id = d->correlation_id;
    if (d->phase == ACTIVITY_API_PHASE_EXIT) e.result = d->HSAKMT_STATUS_retval;
  } else {
    const auto* d = static_cast<const hsa_api_data_t*>(callback_data);
    e.phase = d->phase;
    e.id = d->correlation_id;
    if (d->phase == ACTIVITY_API_PHASE_EXIT) e.result = d->hsa_status_t_retval;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(e);
}

void Collect(const char* begin, const char* end, void*) {
  const auto* r = reinterpret_cast<const activity_record_t*>(begin);
  const auto* last = reinterpret_cast<const activity_record_t*>(end);
  std::lock_guard<std::mutex> lock(g_mutex);
  while (r < last) {
    g_records.push_back(*r);
    if (g_api.next_record(r, &r) != ROCTRACER_STATUS_SUCCESS) break;
  }
}

const activity_record_t* RecordOf(uint32_t domain, uint64_t id) {
  for (const activity_record_t& r : g_records) {
    if (r.domain == domain && r.correlation_id == id) return &r;
  }
  return nullptr;
}

}  // namespace

int main() {
  if (!Find(&g_api.enable_callback, "roctracer_enable_domain_callback") ||
      !Find(&g_api.enable_activity, "roctracer_enable_domain_activity") ||
      !Find(&g_api.disable_callback, "roctracer_disable_domain_callback") ||
      !Find(&g_api.disable_activity, "roctracer_disable_domain_activity") ||
      !Find(&g_api.open_pool, "roctracer_open_pool") ||
      !Find(&g_api.close_pool, "roctracer_close_pool") ||
      !Find(&g_api.next_record, "roctracer_next_record") ||
      !Find(&g_api.op_string, "roctracer_op_string") ||
      !Find(&g_api.op_code, "roctracer_op_code")) {
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

  roctracer_properties_t properties{};
  properties.buffer_size = 1 << 16;
  properties.buffer_callback_fun = &Collect;
  CHECK(g_api.open_pool(&properties) == ROCTRACER_STATUS_SUCCESS);
  for (auto domain : {ACTIVITY_DOMAIN_KFD_API, ACTIVITY_DOMAIN_HSA_API}) {
    CHECK(g_api.enable_callback(domain, &Callback, nullptr) ==
          ROCTRACER_STATUS_SUCCESS);
    CHECK(g_api.enable_activity(domain) == ROCTRACER_STATUS_SUCCESS);
  }
  const hsa_status_t init = hsa_init();
  for (auto domain : {ACTIVITY_DOMAIN_KFD_API, ACTIVITY_DOMAIN_HSA_API}) {
    g_api.disable_callback(domain);
    g_api.disable_activity(domain);
  }
  CHECK(g_api.close_pool() == ROCTRACER_STATUS_SUCCESS);
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

  std::lock_guard<std::mutex> lock(g_mutex);
  // Strict nesting; every KFD call lies inside hsa_init.
  std::vector<const Event*> stack;
  uint64_t init_id = 0;
  size_t kfd_calls = 0, kfd_inside_init = 0, opens = 0;
  for (const Event& ev : g_events) {
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
    for (const Event& ev : g_events) {
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
              g_failures);
  return g_failures == 0 ? 0 : 1;
}
