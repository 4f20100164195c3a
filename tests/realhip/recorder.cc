// Preloaded into a hipcc-built program (after libroctracer64.so.4) to
// record the same run twice: through this project's roctracer (HIP_API,
// HIP_OPS and HSA_OPS activity into one pool) and through HIP's own
// activity reporting (hipInitActivityCallback / hipEnableActivityCallback,
// what ROCm's roctracer 5.2 registers), an independent reference. At exit
// it writes counts to $RECORDER_OUT, one line each:
//   hip OP KIND COUNT          HIP's own records, by op and command kind
//   tracer DOMAIN OP KIND COUNT  the tracer's, HIP_OPS / HSA_OPS (kind 0)
//   kernel DOMAIN NAME COUNT   the tracer's dispatch records by kernel name
//   api SOURCE NAME COUNT      HIP API calls by name: the tracer's HIP_API
//                              records, HIP's own API callbacks (enter)
//   calls HIP_OPS OP KIND API COUNT  the HIP API calls (by name) the
//                              tracer's HIP_OPS records of an op and kind
//                              came from: distinct correlation IDs
#include <dlfcn.h>
#include <roctracer.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

namespace {

std::mutex& g_mutex = *new std::mutex;
// (source, domain, op, kind) -> count; source "hip" or "tracer".
std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t>, int>& g_ops =
    *new std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t>, int>;
std::map<std::pair<uint32_t, std::string>, int>& g_kernels =
    *new std::map<std::pair<uint32_t, std::string>, int>;
std::map<std::pair<std::string, uint32_t>, int>& g_api =
    *new std::map<std::pair<std::string, uint32_t>, int>;
// The tracer's HIP_API records: correlation ID -> API op; and, per HIP_OPS
// (op, kind), the correlation IDs of its records.
std::map<uint64_t, uint32_t>& g_call_op = *new std::map<uint64_t, uint32_t>;
std::map<std::pair<uint32_t, uint32_t>, std::set<uint64_t>>& g_op_calls =
    *new std::map<std::pair<uint32_t, uint32_t>, std::set<uint64_t>>;
roctracer_pool_t* g_pool = nullptr;

void Buffer(const char* begin, const char* end, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const activity_record_t* r =
      reinterpret_cast<const activity_record_t*>(begin);
  while (r < reinterpret_cast<const activity_record_t*>(end)) {
    if (r->domain == ACTIVITY_DOMAIN_HIP_API) {
      ++g_api[{"tracer", r->op}];
      g_call_op[r->correlation_id] = r->op;
    } else if (r->domain == ACTIVITY_DOMAIN_HIP_OPS ||
               r->domain == ACTIVITY_DOMAIN_HSA_OPS) {
      uint32_t kind = r->domain == ACTIVITY_DOMAIN_HIP_OPS ? r->kind : 0;
      ++g_ops[{"tracer", r->domain, r->op, kind}];
      if (r->domain == ACTIVITY_DOMAIN_HIP_OPS) {
        g_op_calls[{r->op, kind}].insert(r->correlation_id);
      }
      if (r->op == 0 && r->kernel_name != nullptr) {
        ++g_kernels[{r->domain, r->kernel_name}];
      }
    }
    if (roctracer_next_record(r, &r) != ROCTRACER_STATUS_SUCCESS) break;
  }
}

// HIP's callbacks: the id callback at submission, the record at completion.
void HipId(activity_correlation_id_t) {}
void HipRecord(uint32_t op, void* record, void*) {
  const auto* r = static_cast<const activity_record_t*>(record);
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_ops[{"hip", r->domain, op, r->kind}];
}

// HIP's API callback (hipRegisterApiCallback): data starts with the
// correlation ID and the phase (0: enter).
void HipApi(uint32_t, uint32_t cid, const void* data, void*) {
  struct Head {
    uint64_t correlation_id;
    uint32_t phase;
  };
  if (static_cast<const Head*>(data)->phase != 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_api[{"hip", cid}];
}

const char* DomainName(uint32_t d) {
  return d == ACTIVITY_DOMAIN_HIP_OPS   ? "HIP_OPS"
         : d == ACTIVITY_DOMAIN_HSA_OPS ? "HSA_OPS"
                                        : "OTHER";
}

__attribute__((constructor)) void Start() {
  using Init = void (*)(void*, void*, void*);
  using Enable = bool (*)(uint32_t, bool);
  using RegisterApi = int (*)(uint32_t, void*, void*);
  // From HIP itself (the tracer in front of it exports HIP's API only).
  void* hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  auto init = reinterpret_cast<Init>(hip ? dlsym(hip, "hipInitActivityCallback")
                                         : nullptr);
  auto enable = reinterpret_cast<Enable>(
      hip ? dlsym(hip, "hipEnableActivityCallback") : nullptr);
  if (init != nullptr && enable != nullptr) {
    init(reinterpret_cast<void*>(&HipId), reinterpret_cast<void*>(&HipRecord),
         nullptr);
    for (uint32_t op = 0; op < 3; ++op) enable(op, true);
    auto register_api =
        reinterpret_cast<RegisterApi>(dlsym(hip, "hipRegisterApiCallback"));
    // Every API ID of HIP 5.2 (hip_prof_str.h: 1..333).
    for (uint32_t id = 1; register_api != nullptr && id <= 333; ++id) {
      register_api(id, reinterpret_cast<void*>(&HipApi), nullptr);
    }
  } else {
    fprintf(stderr, "recorder: HIP's activity callbacks not found\n");
  }
  roctracer_properties_t props{};
  props.buffer_size = 1 << 16;
  props.buffer_callback_fun = &Buffer;
  roctracer_pool_t* pool = nullptr;
  if (roctracer_open_pool_expl(&props, &pool) != ROCTRACER_STATUS_SUCCESS) {
    fprintf(stderr, "recorder: no pool: %s\n", roctracer_error_string());
    return;
  }
  for (auto d : {ACTIVITY_DOMAIN_HIP_API, ACTIVITY_DOMAIN_HIP_OPS,
                 ACTIVITY_DOMAIN_HSA_OPS}) {
    g_pool = pool;
    if (roctracer_enable_domain_activity_expl(d, pool) !=
        ROCTRACER_STATUS_SUCCESS) {
      fprintf(stderr, "recorder: enable %d: %s\n", d, roctracer_error_string());
    }
  }
}

__attribute__((destructor)) void Stop() {
  if (g_pool != nullptr) roctracer_flush_activity_expl(g_pool);
  const char* path = getenv("RECORDER_OUT");
  FILE* f = path ? fopen(path, "w") : stderr;
  if (f == nullptr) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& [key, n] : g_ops) {
    auto& [source, domain, op, kind] = key;
    if (source == "hip") {
      fprintf(f, "hip %u %#x %d\n", op, kind, n);
    } else {
      fprintf(f, "tracer %s %u %#x %d\n", DomainName(domain), op, kind, n);
    }
  }
  for (auto& [key, n] : g_kernels) {
    fprintf(f, "kernel %s %s %d\n", DomainName(key.first), key.second.c_str(),
            n);
  }
  for (auto& [key, n] : g_api) {
    const char* name =
        roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, key.second, 0);
    fprintf(f, "api %s %s %d\n", key.first.c_str(), name ? name : "?", n);
  }
  for (auto& [key, ids] : g_op_calls) {
    std::map<std::string, int> by_api;
    for (uint64_t id : ids) {
      auto it = g_call_op.find(id);
      const char* name =
          it == g_call_op.end()
              ? nullptr
              : roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, it->second, 0);
      ++by_api[name ? name : "?"];
    }
    for (auto& [name, n] : by_api) {
      fprintf(f, "calls HIP_OPS %u %#x %s %d\n", key.first, key.second,
              name.c_str(), n);
    }
  }
  if (f != stderr) fclose(f);
}

}  // namespace
