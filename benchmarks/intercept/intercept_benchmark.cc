// Cost of interception on cheap real calls (hsa_status_string,
// hsa_system_get_info, hipGetErrorString), per path and mode:
//   Direct      the runtime's function called through a pointer from dlsym;
//   Table/m     the HSA table wrapper installed by OnLoad (plugin path);
//   Symbol/m    the C-symbol stub linked into this binary ahead of the
//               runtimes (preload / linked-ahead path);
// m = 0 nothing enabled, 1 callback enabled (empty user callback),
//     2 activity enabled into the default pool (no callback);
//   StringArg/h a call with one string argument, its name in home h.
// The "allocs_per_call" counter counts heap allocations made on the calling
// thread (malloc and friends are interposed below).
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa_api_trace.h>
#include <malloc.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "hsa_table_fill.h"
#include "runtime/activity/activity_emit.h"
#include "runtime/activity/domain_registry.h"

extern "C" bool OnLoad(HsaApiTable*, uint64_t, uint64_t, const char* const*);

// ---- allocation counting --------------------------------------------------
extern "C" void* __libc_malloc(size_t);
extern "C" void* __libc_calloc(size_t, size_t);
extern "C" void* __libc_realloc(void*, size_t);
extern "C" void* __libc_memalign(size_t, size_t);

namespace {
thread_local uint64_t t_allocations = 0;
}  // namespace

extern "C" {
void* malloc(size_t n) {
  ++t_allocations;
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t m) {
  ++t_allocations;
  return __libc_calloc(n, m);
}
void* realloc(void* p, size_t n) {
  ++t_allocations;
  return __libc_realloc(p, n);
}
void* memalign(size_t a, size_t n) {
  ++t_allocations;
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  ++t_allocations;
  *out = __libc_memalign(a, n);
  return *out == nullptr ? 12 /* ENOMEM */ : 0;
}
void* aligned_alloc(size_t a, size_t n) {
  ++t_allocations;
  return __libc_memalign(a, n);
}
}  // extern "C"

namespace {

HsaApiTableContainer g_tables;
HsaApiTableContainer g_direct;
decltype(&hipGetErrorString) g_hip_direct = nullptr;

void EmptyCallback(uint32_t, uint32_t, const void*, void*) {}
void DropBuffer(const char*, const char*, void*) {}

void* LookUp(const char* name, void* handle) { return dlsym(handle, name); }

// Enables `mode` for one (domain, op) for the life of the object.
class Mode {
 public:
  Mode(int mode, uint32_t domain, uint32_t op)
      : mode_(mode), domain_(domain), op_(op) {
    if (mode_ == 1) {
      roctracer_enable_op_callback(static_cast<activity_domain_t>(domain_), op_,
                                   &EmptyCallback, nullptr);
    } else if (mode_ == 2) {
      roctracer_enable_op_activity(static_cast<activity_domain_t>(domain_),
                                   op_);
    }
  }
  ~Mode() {
    if (mode_ == 1) {
      roctracer_disable_op_callback(static_cast<activity_domain_t>(domain_),
                                    op_);
    } else if (mode_ == 2) {
      roctracer_disable_op_activity(static_cast<activity_domain_t>(domain_),
                                    op_);
    }
  }

 private:
  int mode_;
  uint32_t domain_, op_;
};

template <class Body>
void Run(benchmark::State& state, Body body) {
  body();  // warm-up: lazy symbol resolution, per-thread state
  const uint64_t before = t_allocations;
  for (auto _ : state) body();
  state.counters["allocs_per_call"] =
      static_cast<double>(t_allocations - before) /
      static_cast<double>(state.iterations());
}

const char* g_text;
uint16_t g_major;

void BM_HsaStatusString_Direct(benchmark::State& state) {
  auto fn = g_direct.core.hsa_status_string_fn;
  Run(state, [fn] { benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &g_text)); });
}
void BM_HsaStatusString_Table(benchmark::State& state) {
  Mode mode(state.range(0), ACTIVITY_DOMAIN_HSA_API,
            HSA_API_ID_hsa_status_string);
  auto fn = g_tables.core.hsa_status_string_fn;
  Run(state, [fn] { benchmark::DoNotOptimize(fn(HSA_STATUS_ERROR, &g_text)); });
}
void BM_HsaStatusString_Symbol(benchmark::State& state) {
  Mode mode(state.range(0), ACTIVITY_DOMAIN_HSA_API,
            HSA_API_ID_hsa_status_string);
  Run(state, [] {
    benchmark::DoNotOptimize(hsa_status_string(HSA_STATUS_ERROR, &g_text));
  });
}
void BM_HsaSystemGetInfo_Direct(benchmark::State& state) {
  auto fn = g_direct.core.hsa_system_get_info_fn;
  Run(state, [fn] {
    benchmark::DoNotOptimize(fn(HSA_SYSTEM_INFO_VERSION_MAJOR, &g_major));
  });
}
void BM_HsaSystemGetInfo_Table(benchmark::State& state) {
  Mode mode(state.range(0), ACTIVITY_DOMAIN_HSA_API,
            HSA_API_ID_hsa_system_get_info);
  auto fn = g_tables.core.hsa_system_get_info_fn;
  Run(state, [fn] {
    benchmark::DoNotOptimize(fn(HSA_SYSTEM_INFO_VERSION_MAJOR, &g_major));
  });
}
void BM_HipGetErrorString_Direct(benchmark::State& state) {
  auto fn = g_hip_direct;
  Run(state, [fn] { benchmark::DoNotOptimize(fn(hipErrorNoDevice)); });
}
void BM_HipGetErrorString_Symbol(benchmark::State& state) {
  Mode mode(state.range(0), ACTIVITY_DOMAIN_HIP_API,
            HIP_API_ID_hipGetErrorString);
  Run(state,
      [] { benchmark::DoNotOptimize(hipGetErrorString(hipErrorNoDevice)); });
}

// One string argument: hsa_executable_get_symbol_by_name (answers
// NOT_INITIALIZED at once here) with its name in each home the tracer's
// fault-safe copy tells apart (readable_memory.h): 0 a string literal (a
// loaded object's segment), 1 the caller's stack, 2 the brk heap, 3 an
// anonymous mapping (the mapping snapshot), 4 an invalid pointer (0x10), 5 a
// shared library's constant (libhsa-runtime64, loaded at startup), 6 a
// block a worker thread allocated (its malloc arena), 7 the constant of a
// library loaded later with dlopen (the mapping snapshot), 8 a block malloc
// maps on its own (40 MiB). _Direct is the runtime's function, _Table the
// table wrapper with an empty callback.
constexpr char kName[] = "a_kernel_name_of_typical_length";
char* g_mapped_name = nullptr;

template <class Body>
void WithName(benchmark::State& state, Body body) {
  char on_stack[sizeof(kName)];
  std::memcpy(on_stack, kName, sizeof(kName));
  char* on_heap = static_cast<char*>(std::malloc(sizeof(kName)));
  std::memcpy(on_heap, kName, sizeof(kName));
  // Above the largest threshold glibc adapts to (32 MiB): always mapped.
  char* large = static_cast<char*>(std::malloc(40u << 20));
  std::memcpy(large, kName, sizeof(kName));
  const char* in_library = nullptr;  // libhsa-runtime64's text for the code
  g_direct.core.hsa_status_string_fn(HSA_STATUS_ERROR, &in_library);
  char* from_worker = nullptr;
  std::thread([&] {
    from_worker = static_cast<char*>(std::malloc(sizeof(kName)));
    std::memcpy(from_worker, kName, sizeof(kName));
  }).join();
  // Any library the benchmark does not link: libexpat's version text.
  void* later = dlopen("libexpat.so.1", RTLD_NOW | RTLD_LOCAL);
  const char* in_later_library = reinterpret_cast<const char*>(0x10);
  if (later != nullptr) {
    if (auto version = reinterpret_cast<const char* (*)()>(
            dlsym(later, "XML_ExpatVersion"))) {
      in_later_library = version();
    }
  } else if (state.range(0) == 7) {
    state.SkipWithError("libexpat.so.1 not found");
  }
  const char* homes[] = {kName,
                         on_stack,
                         on_heap,
                         g_mapped_name,
                         reinterpret_cast<const char*>(0x10),
                         in_library,
                         from_worker,
                         in_later_library,
                         large};
  body(homes[state.range(0)]);
  std::free(on_heap);
  std::free(large);
  std::free(from_worker);
  if (later != nullptr) dlclose(later);
}

void BM_StringArg_Direct(benchmark::State& state) {
  auto fn = g_direct.core.hsa_executable_get_symbol_by_name_fn;
  WithName(state, [&](const char* name) {
    hsa_executable_symbol_t symbol;
    Run(state, [&] {
      benchmark::DoNotOptimize(fn(hsa_executable_t{1}, name, nullptr, &symbol));
    });
  });
}
void BM_StringArg_Table(benchmark::State& state) {
  Mode mode(1, ACTIVITY_DOMAIN_HSA_API,
            HSA_API_ID_hsa_executable_get_symbol_by_name);
  auto fn = g_tables.core.hsa_executable_get_symbol_by_name_fn;
  WithName(state, [&](const char* name) {
    hsa_executable_symbol_t symbol;
    Run(state, [&] {
      benchmark::DoNotOptimize(fn(hsa_executable_t{1}, name, nullptr, &symbol));
    });
  });
}

// The pool's share of mode 2: one API record written the way Exit writes it,
// into the lock-free pool (runtime/pool), without any interception.
void BM_PoolWriteOnly(benchmark::State& state) {
  Mode mode(2, ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string);
  roctracer::pool::Pool* pool = roctracer::activity::ActivityPoolFor(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string);
  activity_record_t record{};
  record.domain = ACTIVITY_DOMAIN_HSA_API;
  record.op = HSA_API_ID_hsa_status_string;
  Run(state, [pool, &record] {
    ++record.correlation_id;
    benchmark::DoNotOptimize(
        roctracer::activity::EmitApiActivityTo(pool, record));
  });
}

BENCHMARK(BM_PoolWriteOnly);
BENCHMARK(BM_HsaStatusString_Direct);
BENCHMARK(BM_HsaStatusString_Table)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_HsaStatusString_Symbol)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_HsaSystemGetInfo_Direct);
BENCHMARK(BM_HsaSystemGetInfo_Table)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_HipGetErrorString_Direct);
BENCHMARK(BM_HipGetErrorString_Symbol)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_StringArg_Direct)->DenseRange(0, 8);
BENCHMARK(BM_StringArg_Table)->DenseRange(0, 8);

}  // namespace

int main(int argc, char** argv) {
  void* hsa = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD);
  void* hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  if (hsa == nullptr || hip == nullptr) {
    std::fprintf(stderr, "runtimes not loaded\n");
    return 1;
  }
  roctracer::hsa_api::FillHsaApiTable(&g_tables, &LookUp, hsa);
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return 1;
  g_mapped_name = static_cast<char*>(page);
  std::memcpy(g_mapped_name, kName, sizeof(kName));
  roctracer::hsa_api::FillHsaApiTable(&g_direct, &LookUp, hsa);
  g_hip_direct =
      reinterpret_cast<decltype(g_hip_direct)>(dlsym(hip, "hipGetErrorString"));
  if (!OnLoad(&g_tables.root, 0, 0, nullptr) || g_hip_direct == nullptr) {
    return 1;
  }
  roctracer_properties_t properties{};
  properties.buffer_size = 1 << 20;
  properties.buffer_callback_fun = &DropBuffer;
  if (roctracer_open_pool(&properties) != ROCTRACER_STATUS_SUCCESS) return 1;

  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  roctracer_close_pool();
  return 0;
}
