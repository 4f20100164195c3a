// Randomized bad input against every public function of both front ends
// (roctracer, rocTX, rocprofiler-sdk), called through the shared libraries as
// a program would: NULLs, out-of-range domains/ops/kinds/enums, foreign and
// closed handles, huge sizes and strings, in random order from several
// threads. Each call must return its documented status (include/*.h,
// sdk/README.md) and nothing may crash; run under ASan+UBSan and TSan.
//
// Reproducible: --seed=N (or ROBUSTNESS_SEED) fixes every thread's sequence
// of cases (thread i uses seed + i); the seed is printed first. The state the
// cases run against never changes (no valid enable, no pool opened), so a
// case's expected status does not depend on the order.
//
// Every name in the libraries' version scripts must have a case: a new
// public function fails the test until it gets one.
#include <dlfcn.h>
#include <pthread.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/experimental/counters.h"
#include "rocprofiler-sdk/experimental/thread_trace.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "rocprofiler-sdk/spm.h"
#include "roctracer.h"
#include "roctracer_ext.h"
#include "roctracer_hip.h"
#include "roctracer_roctx.h"
#include "roctx.h"
#include "runtime/private/last_words_export.h"
#include "runtime/private/observer_export.h"
#include "runtime/private/tool_activity.h"
#include "tests/sdk/tool_configure.h"

// Exported without a declaration in the 4.1 headers.
extern "C" {
void roctracer_mark(const char* str);
// The HSA tool entry: called here with what no runtime would hand over (no
// table), so the test calls it itself rather than through softhsa.
struct HsaApiTable;
bool OnLoad(HsaApiTable* table, uint64_t runtime_version,
            uint64_t failed_tool_count, const char* const* failed_tool_names);
void OnUnload(void);
int rocprofiler_set_api_table(const char* name, uint64_t lib_version,
                              uint64_t lib_instance, void** tables,
                              uint64_t num_tables);
}

namespace {

using Rng = std::mt19937_64;

// ---- options --------------------------------------------------------------

uint64_t g_seed = 0;
int g_threads = 1;
int g_iterations = 20000;
std::vector<std::string> g_maps;

// ---- passing any integer where the API takes an enum ----------------------

// A C caller may pass any int as an enum; C++ may not even form such a
// value without undefined behaviour (and UBSan's enum check flags loading
// it). Calling through the same function type with each enum parameter as
// its int is the same call at the ABI level.
template <class T>
using AsInt = std::conditional_t<std::is_enum<T>::value, int32_t, T>;

template <class R, class... A>
auto IntArgs(R (*fn)(A...)) {
  return reinterpret_cast<AsInt<R> (*)(AsInt<A>...)>(fn);
}

// Writes an int into an enum member of a struct without an enum-typed load
// or store.
template <class E>
void SetRaw(E* field, int32_t value) {
  static_assert(sizeof(E) == sizeof(value), "an int-sized enum");
  std::memcpy(field, &value, sizeof(value));
}

int32_t Pick(Rng& rng, std::initializer_list<int64_t> values) {
  const size_t i = rng() % values.size();
  return static_cast<int32_t>(*(values.begin() + i));
}

// ---- facts read from the libraries before the random phase ----------------

// Domains with operations, and their counts (op_string is NULL past the end).
uint32_t g_op_count[ACTIVITY_DOMAIN_NUMBER] = {};
std::vector<uint32_t> g_valid_domains;
// A pool that was opened and closed; a pool handle nobody opened.
roctracer_pool_t* g_closed_pool = nullptr;
int g_not_a_pool[64];
std::string g_huge;  // 1 MiB of 'x'
rocprofiler_context_id_t g_context{0};

uint32_t BadDomain(Rng& rng) {
  switch (rng() % 5) {
    case 0:
      return ACTIVITY_DOMAIN_NUMBER + 1;  // just past the last
    case 1:
      return ACTIVITY_DOMAIN_NUMBER;
    case 2:
      return UINT32_MAX;
    case 3:
      return 0x80000000u;
    default:
      return ACTIVITY_DOMAIN_NUMBER + static_cast<uint32_t>(rng() % 1000000);
  }
}

uint32_t ValidDomain(Rng& rng) {
  return g_valid_domains[rng() % g_valid_domains.size()];
}

uint32_t BadOp(Rng& rng, uint32_t domain) {
  const uint32_t n = g_op_count[domain];
  switch (rng() % 4) {
    case 0:
      return n;
    case 1:
      return UINT32_MAX;  // once meant "every op"
    case 2:
      return 0x80000000u;
    default:
      return n + static_cast<uint32_t>(rng() % (UINT32_MAX - n));
  }
}

roctracer_pool_t* ForeignPool(Rng& rng) {
  switch (rng() % 4) {
    case 0:
      return g_closed_pool;
    case 1:
      return &g_not_a_pool[rng() % 64];
    case 2:
      return reinterpret_cast<roctracer_pool_t*>(uintptr_t{0x10});
    default:
      return reinterpret_cast<roctracer_pool_t*>(~uintptr_t{0} - 63);
  }
}

const char* AnyMessage(Rng& rng) {
  switch (rng() % 3) {
    case 0:
      return nullptr;
    case 1:
      return "";
    default:
      return g_huge.c_str();
  }
}

// A NULL the compiler cannot see: the SDK headers mark pointer parameters
// nonnull for callers, and the calls below pass NULL on purpose (through
// IntArgs' function pointer, which UBSan's nonnull check does not see).
template <class T>
T* Null() {
  static T* volatile p = nullptr;
  return p;
}

void NoopCallback(uint32_t, uint32_t, const void*, void*) {}
void NoopBuffer(const char*, const char*, void*) {}

rocprofiler_context_id_t BadContext(Rng& rng) {
  switch (rng() % 4) {
    case 0:
      return {0};
    case 1:
      return {65};
    case 2:
      return {UINT64_MAX};
    default:
      return {g_context.handle + 1 + rng() % 62};  // never created
  }
}

// Values outside the kind enums (NONE is a kind with a name and no
// operations, as in rocprofiler-sdk 1.0.0: names_test and
// buffer_tracing_test check it).
int32_t BadKind(Rng& rng) {
  return Pick(
      rng, {ROCPROFILER_CALLBACK_TRACING_LAST, 999, -1, INT32_MIN, INT32_MAX});
}

int32_t BadBufferKind(Rng& rng) {
  return Pick(rng,
              {ROCPROFILER_BUFFER_TRACING_LAST, 999, -1, INT32_MIN, INT32_MAX});
}

// Handles of buffers never created (the tool here creates none).
rocprofiler_buffer_id_t BadBuffer(Rng& rng) {
  const uint64_t handles[] = {0, 1, 64, 65, UINT64_MAX, 1 + rng() % 64};
  return rocprofiler_buffer_id_t{handles[rng() % 6]};
}

// An SDK kind this library traces, with its operation count.
int32_t TracedKind(Rng& rng) {
  return Pick(rng, {ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                    ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                    ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API});
}

int CountOps(rocprofiler_callback_tracing_kind_t,
             rocprofiler_tracing_operation_t, void* n) {
  ++*static_cast<int32_t*>(n);
  return 0;
}

int32_t OpCountOfKind(int32_t kind) {
  int32_t n = 0;
  IntArgs (&rocprofiler_iterate_callback_tracing_kind_operations)(
      kind, &CountOps, &n);
  return n;
}

int ArgVisitor(rocprofiler_callback_tracing_kind_t,
               rocprofiler_tracing_operation_t, uint32_t, const void* const,
               int32_t, const char*, const char*, const char*, int32_t, void*) {
  return 0;
}

// ---- the cases -------------------------------------------------------------

struct Case {
  const char* function;
  void (*run)(Rng&);
};

// clang-format off
#define CASE(fn, ...) Case{#fn, [](Rng& rng) { (void)rng; __VA_ARGS__; }}
// clang-format on

constexpr auto kSuccess = ROCTRACER_STATUS_SUCCESS;
constexpr auto kBadDomain = ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID;
constexpr auto kBadArg = ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT;
constexpr auto kNoDefault = ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED;

const std::vector<Case>& RoctracerCases() {
  static const std::vector<Case> cases = {
      CASE(roctracer_version_major,
           EXPECT_EQ(roctracer_version_major(), ROCTRACER_VERSION_MAJOR)),
      CASE(roctracer_version_minor,
           EXPECT_EQ(roctracer_version_minor(), ROCTRACER_VERSION_MINOR)),
      CASE(roctracer_error_string,
           EXPECT_NE(roctracer_error_string(), nullptr)),
      CASE(roctracer_op_string,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(roctracer_op_string(d, 0, rng()), nullptr) << d;
           }),
      CASE(roctracer_op_string,
           {
             const uint32_t d = ValidDomain(rng), op = BadOp(rng, d);
             EXPECT_EQ(roctracer_op_string(d, op, rng()), nullptr)
                 << d << " " << op;
           }),
      CASE(roctracer_op_code,
           {
             uint32_t op = 0;
             EXPECT_EQ(
                 roctracer_op_code(BadDomain(rng), "hipMalloc", &op, nullptr),
                 kBadDomain);
           }),
      CASE(roctracer_op_code,
           {
             uint32_t op = 0, kind = 0;
             const uint32_t d = ValidDomain(rng);
             EXPECT_EQ(roctracer_op_code(d, nullptr, &op, &kind), kBadArg);
             EXPECT_EQ(roctracer_op_code(d, "roctxMarkA", nullptr, &kind),
                       kBadArg);
             EXPECT_EQ(roctracer_op_code(d, g_huge.c_str(), &op, &kind),
                       kBadArg);
             EXPECT_EQ(roctracer_op_code(d, "", &op, nullptr), kBadArg);
           }),
      CASE(roctracer_set_properties,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_set_properties)(
                           static_cast<int32_t>(d), g_not_a_pool),
                       kBadDomain)
                 << d;
           }),
      CASE(roctracer_enable_op_callback,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_enable_op_callback)(
                           static_cast<int32_t>(d), 0, &NoopCallback, nullptr),
                       kBadDomain)
                 << d;
           }),
      CASE(roctracer_enable_op_callback,
           {
             const uint32_t d = ValidDomain(rng), op = BadOp(rng, d);
             EXPECT_EQ(IntArgs(&roctracer_enable_op_callback)(
                           static_cast<int32_t>(d), op, &NoopCallback, nullptr),
                       kBadArg)
                 << d << " " << op;
             EXPECT_EQ(IntArgs(&roctracer_enable_op_callback)(
                           static_cast<int32_t>(d), 0, nullptr, nullptr),
                       kBadArg);
           }),
      CASE(roctracer_enable_domain_callback,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_enable_domain_callback)(
                           static_cast<int32_t>(d), &NoopCallback, nullptr),
                       kBadDomain)
                 << d;
             EXPECT_EQ(
                 IntArgs(&roctracer_enable_domain_callback)(
                     static_cast<int32_t>(ValidDomain(rng)), nullptr, nullptr),
                 kBadArg);
           }),
      CASE(
          roctracer_enable_callback,
          EXPECT_EQ(roctracer_enable_callback(nullptr, g_not_a_pool), kBadArg)),
      CASE(roctracer_disable_op_callback,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_disable_op_callback)(
                           static_cast<int32_t>(d), 0),
                       kBadDomain)
                 << d;
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_disable_op_callback)(
                           static_cast<int32_t>(v), op),
                       kBadArg)
                 << v << " " << op;
           }),
      CASE(roctracer_disable_domain_callback,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_disable_domain_callback)(
                           static_cast<int32_t>(d)),
                       kBadDomain)
                 << d;
           }),
      CASE(roctracer_disable_callback,
           EXPECT_EQ(roctracer_disable_callback(), kSuccess)),
      CASE(roctracer_next_record,
           {
             const activity_record_t* next = nullptr;
             activity_record_t r{};
             EXPECT_EQ(roctracer_next_record(nullptr, &next), kBadArg);
             EXPECT_EQ(roctracer_next_record(&r, nullptr), kBadArg);
           }),
      CASE(roctracer_open_pool_expl,
           {
             roctracer_pool_t* pool = nullptr;
             EXPECT_EQ(roctracer_open_pool_expl(nullptr, &pool), kBadArg);
             // (No callback is accepted, as ROCm does: api_status_test. Not
             // opened here: each closed pool would bring the recycling of
             // g_closed_pool's object nearer, see README's known limits.)
             roctracer_properties_t p{};
             p.buffer_callback_fun = &NoopBuffer;
             p.buffer_size = static_cast<size_t>(
                 Pick(rng, {0, 1, 191, 63}));  // below a record + tag + message
             EXPECT_EQ(roctracer_open_pool_expl(&p, &pool), kBadArg)
                 << p.buffer_size;
             p.buffer_size = rng() % 2 ? SIZE_MAX : (size_t{2} << 30) + 1;
             EXPECT_EQ(roctracer_open_pool_expl(&p, &pool), kBadArg)
                 << p.buffer_size;
             // Without a callback (accepted as such) a bad size is still
             // refused: the size is checked first.
             p.buffer_callback_fun = nullptr;
             p.buffer_size = static_cast<size_t>(Pick(rng, {0, 191}));
             EXPECT_EQ(roctracer_open_pool_expl(&p, &pool), kBadArg)
                 << p.buffer_size;
             p.buffer_size = SIZE_MAX;
             EXPECT_EQ(roctracer_open_pool_expl(&p, &pool), kBadArg);
             EXPECT_EQ(roctracer_open_pool(&p), kBadArg);
             EXPECT_EQ(pool, nullptr);
           }),
      CASE(roctracer_open_pool,
           {
             EXPECT_EQ(roctracer_open_pool(nullptr), kBadArg);
             roctracer_properties_t p{};
             p.buffer_callback_fun = &NoopBuffer;
             p.buffer_size = SIZE_MAX;
             EXPECT_EQ(roctracer_open_pool(&p), kBadArg);
           }),
      CASE(roctracer_close_pool_expl,
           EXPECT_EQ(roctracer_close_pool_expl(ForeignPool(rng)), kBadArg)),
      // No default pool: closing it is a documented no-op.
      CASE(roctracer_close_pool, EXPECT_EQ(roctracer_close_pool(), kSuccess)),
      CASE(roctracer_default_pool_expl,
           EXPECT_EQ(roctracer_default_pool_expl(ForeignPool(rng)), nullptr)),
      CASE(roctracer_default_pool,
           EXPECT_EQ(roctracer_default_pool(), nullptr)),
      CASE(roctracer_enable_op_activity_expl,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_enable_op_activity_expl)(
                           static_cast<int32_t>(d), 0, ForeignPool(rng)),
                       kBadDomain)
                 << d;
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_enable_op_activity_expl)(
                           static_cast<int32_t>(v), op, nullptr),
                       kBadArg)
                 << v << " " << op;
             EXPECT_EQ(IntArgs(&roctracer_enable_op_activity_expl)(
                           static_cast<int32_t>(v), 0, ForeignPool(rng)),
                       kBadArg);
           }),
      // The tool slot: no default-pool fallback, so NULL is refused too.
      CASE(roctracer_internal_tool_enable_op_activity,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_activity)(
                           static_cast<int32_t>(d), 0, ForeignPool(rng)),
                       kBadDomain)
                 << d;
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_activity)(
                           static_cast<int32_t>(v), op, nullptr),
                       kBadArg)
                 << v << " " << op;
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_activity)(
                           static_cast<int32_t>(v), 0, ForeignPool(rng)),
                       kBadArg);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_activity)(
                           static_cast<int32_t>(v), 0, nullptr),
                       kBadArg);
           }),
      CASE(roctracer_internal_tool_enable_domain_activity,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_domain_activity)(
                           static_cast<int32_t>(d), ForeignPool(rng)),
                       kBadDomain)
                 << d;
             const int32_t v = static_cast<int32_t>(ValidDomain(rng));
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_domain_activity)(
                           v, ForeignPool(rng)),
                       kBadArg);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_domain_activity)(
                           v, nullptr),
                       kBadArg);
           }),
      CASE(roctracer_internal_tool_enable_op_callback,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_callback)(
                           static_cast<int32_t>(d), 0, &NoopCallback, nullptr),
                       kBadDomain)
                 << d;
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_callback)(
                           static_cast<int32_t>(v), op, &NoopCallback, nullptr),
                       kBadArg)
                 << v << " " << op;
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_enable_op_callback)(
                           static_cast<int32_t>(v), 0, nullptr, nullptr),
                       kBadArg);
           }),
      CASE(roctracer_internal_tool_disable_op_callback,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_disable_op_callback)(
                           static_cast<int32_t>(d), 0),
                       kBadDomain)
                 << d;
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_internal_tool_disable_op_callback)(
                           static_cast<int32_t>(v), op),
                       kBadArg)
                 << v << " " << op;
           }),
      CASE(roctracer_internal_tool_finalize_at_exit,
           {
             // No finalizer: refused (nothing would run at exit).
             EXPECT_FALSE(roctracer_internal_tool_finalize_at_exit(
                 nullptr, reinterpret_cast<void*>(rng())));
           }),
      CASE(roctracer_internal_tool_set_paused,
           {
             // Any value is valid; left resumed for the other cases.
             roctracer_internal_tool_set_paused((rng() & 1) != 0);
             roctracer_internal_tool_set_paused(false);
           }),
      CASE(roctracer_enable_op_activity,
           {
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_enable_op_activity)(
                           static_cast<int32_t>(v), op),
                       kBadArg)
                 << v << " " << op;
             EXPECT_EQ(IntArgs(&roctracer_enable_op_activity)(
                           static_cast<int32_t>(v), 0),
                       kNoDefault);
           }),
      CASE(roctracer_enable_domain_activity_expl,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_enable_domain_activity_expl)(
                           static_cast<int32_t>(d), nullptr),
                       kBadDomain)
                 << d;
             EXPECT_EQ(
                 IntArgs(&roctracer_enable_domain_activity_expl)(
                     static_cast<int32_t>(ValidDomain(rng)), ForeignPool(rng)),
                 kBadArg);
           }),
      CASE(roctracer_enable_domain_activity,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_enable_domain_activity)(
                           static_cast<int32_t>(d)),
                       kBadDomain)
                 << d;
             EXPECT_EQ(IntArgs(&roctracer_enable_domain_activity)(
                           static_cast<int32_t>(ValidDomain(rng))),
                       kNoDefault);
           }),
      CASE(
          roctracer_enable_activity_expl,
          EXPECT_EQ(roctracer_enable_activity_expl(ForeignPool(rng)), kBadArg)),
      CASE(roctracer_enable_activity,
           EXPECT_EQ(roctracer_enable_activity(), kNoDefault)),
      CASE(roctracer_disable_op_activity,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_disable_op_activity)(
                           static_cast<int32_t>(d), 0),
                       kBadDomain)
                 << d;
             const uint32_t v = ValidDomain(rng), op = BadOp(rng, v);
             EXPECT_EQ(IntArgs(&roctracer_disable_op_activity)(
                           static_cast<int32_t>(v), op),
                       kBadArg)
                 << v << " " << op;
           }),
      CASE(roctracer_disable_domain_activity,
           {
             const uint32_t d = BadDomain(rng);
             EXPECT_EQ(IntArgs(&roctracer_disable_domain_activity)(
                           static_cast<int32_t>(d)),
                       kBadDomain)
                 << d;
           }),
      CASE(roctracer_disable_activity,
           EXPECT_EQ(roctracer_disable_activity(), kSuccess)),
      CASE(roctracer_flush_activity_expl,
           EXPECT_EQ(roctracer_flush_activity_expl(ForeignPool(rng)), kBadArg)),
      CASE(roctracer_flush_activity,
           EXPECT_EQ(roctracer_flush_activity(), kSuccess)),
      CASE(roctracer_get_dropped_records_expl,
           {
             uint64_t dropped = 1;
             EXPECT_EQ(
                 roctracer_get_dropped_records_expl(ForeignPool(rng), &dropped),
                 kBadArg);
             EXPECT_EQ(roctracer_get_dropped_records_expl(nullptr, &dropped),
                       kNoDefault);
             EXPECT_EQ(
                 roctracer_get_dropped_records_expl(ForeignPool(rng), nullptr),
                 kBadArg);
           }),
      CASE(roctracer_get_gpu_activity_stats_expl,
           EXPECT_EQ(roctracer_get_gpu_activity_stats_expl(nullptr), kBadArg)),
      CASE(roctracer_get_timestamp,
           EXPECT_EQ(roctracer_get_timestamp(nullptr), kBadArg)),
      CASE(roctracer_start, roctracer_start()),
      CASE(roctracer_stop,
           {
             roctracer_stop();
             roctracer_start();
           }),
      CASE(roctracer_activity_push_external_correlation_id,
           {
             const uint64_t id = rng() % 2 ? UINT64_MAX : 0;
             EXPECT_EQ(roctracer_activity_push_external_correlation_id(id),
                       kSuccess);
             activity_correlation_id_t last = 1;
             EXPECT_EQ(roctracer_activity_pop_external_correlation_id(&last),
                       kSuccess);
             EXPECT_EQ(last, id);
           }),
      CASE(roctracer_activity_pop_external_correlation_id,
           {
             // This thread's stack is empty between cases.
             activity_correlation_id_t last = 1;
             EXPECT_EQ(
                 roctracer_activity_pop_external_correlation_id(&last),
                 ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID);
             EXPECT_EQ(last, 0u);
             EXPECT_EQ(
                 roctracer_activity_pop_external_correlation_id(nullptr),
                 ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID);
           }),
      CASE(roctracer_load, EXPECT_TRUE(roctracer_load())),
      CASE(roctracer_unload, roctracer_unload()),
      CASE(roctracer_flush_buf, roctracer_flush_buf()),
      CASE(roctracer_mark, roctracer_mark(AnyMessage(rng))),
      CASE(OnLoad, EXPECT_FALSE(OnLoad(nullptr, rng(), rng(), nullptr))),
      CASE(OnUnload, OnUnload()),
      // Malformed registrations: -1; tables of libraries the tracer does
      // not wrap: taken and left alone (0).
      CASE(rocprofiler_set_api_table,
           {
             const char* names[] = {nullptr, "hsa", "hip", "roctx", "no such"};
             const char* name = names[rng() % 5];
             void* none[] = {nullptr};
             EXPECT_EQ(
                 rocprofiler_set_api_table(name, rng(), rng(), nullptr, 1), -1);
             EXPECT_EQ(rocprofiler_set_api_table(name, rng(), rng(), none, 1),
                       -1);
             void* some[] = {none};
             EXPECT_EQ(rocprofiler_set_api_table(name, rng(), rng(), some, 0),
                       -1);
             if (name != nullptr && std::string(name) != "hsa") {
               EXPECT_EQ(rocprofiler_set_api_table(name, rng(), rng(), some, 1),
                         0);
               EXPECT_EQ(some[0], static_cast<void*>(none));
             }
           }),
      // The private stream exports (roctrace's): a domain without streams,
      // a short array, and callback data that names no readable stream.
      CASE(roctracer_internal_stream_ops,
           {
             uint32_t ops[2] = {7, 7};
             const bool created = rng() % 2 == 0;
             EXPECT_EQ(
                 roctracer_internal_stream_ops(BadDomain(rng), created, ops, 2),
                 0u);
             EXPECT_EQ(roctracer_internal_stream_ops(ACTIVITY_DOMAIN_HSA_API,
                                                     created, ops, 2),
                       0u);
             EXPECT_EQ(ops[0], 7u);
             // hipStreamCreate, ...WithFlags, ...WithPriority; launches, ...
             const uint32_t n = roctracer_internal_stream_ops(
                 ACTIVITY_DOMAIN_HIP_API, created, nullptr, 0);
             EXPECT_GE(n, created ? 3u : 20u);
             EXPECT_EQ(roctracer_internal_stream_ops(ACTIVITY_DOMAIN_HIP_API,
                                                     created, ops, 1),
                       n);
             EXPECT_EQ(ops[1], 7u);
           }),
      // The private last words (roctrace's): no function, nothing kept.
      CASE(roctracer_internal_on_fatal_signal,
           {
             EXPECT_FALSE(roctracer_internal_on_fatal_signal(
                 nullptr, reinterpret_cast<void*>(rng())));
           }),
      CASE(roctracer_internal_created_stream,
           {
             hip_api_data_t data{};
             uint64_t stream = 42;
             const uint32_t op = HIP_API_ID_hipStreamCreate;
             EXPECT_FALSE(roctracer_internal_created_stream(
                 ACTIVITY_DOMAIN_HIP_API, op, nullptr, &stream));
             EXPECT_FALSE(roctracer_internal_created_stream(
                 ACTIVITY_DOMAIN_HIP_API, op, &data, nullptr));
             EXPECT_FALSE(roctracer_internal_created_stream(BadDomain(rng), op,
                                                            &data, &stream));
             EXPECT_FALSE(roctracer_internal_created_stream(
                 ACTIVITY_DOMAIN_HIP_API, UINT32_MAX, &data, &stream));
             // At ENTER, through NULL, through an address nothing maps.
             data.args.hipStreamCreate.stream = reinterpret_cast<hipStream_t*>(
                 static_cast<intptr_t>(Pick(rng, {0, 0x10, -4096})));
             data.phase = rng() % 2 == 0 ? ACTIVITY_API_PHASE_ENTER
                                         : ACTIVITY_API_PHASE_EXIT;
             EXPECT_FALSE(roctracer_internal_created_stream(
                 ACTIVITY_DOMAIN_HIP_API, op, &data, &stream));
             // A call that failed wrote no stream.
             hipStream_t written = reinterpret_cast<hipStream_t>(0x5000);
             data.args.hipStreamCreate.stream = &written;
             data.phase = ACTIVITY_API_PHASE_EXIT;
             data.hipError_t_retval = hipErrorInvalidValue;
             EXPECT_FALSE(roctracer_internal_created_stream(
                 ACTIVITY_DOMAIN_HIP_API, op, &data, &stream));
             EXPECT_EQ(stream, 42u);
           }),
  };
  return cases;
}

const std::vector<Case>& RoctxCases() {
  static const std::vector<Case> cases = {
      CASE(roctx_version_major,
           EXPECT_EQ(roctx_version_major(), ROCTX_VERSION_MAJOR)),
      CASE(roctx_version_minor,
           EXPECT_EQ(roctx_version_minor(), ROCTX_VERSION_MINOR)),
      CASE(roctxMarkA, roctxMarkA(AnyMessage(rng))),
      CASE(roctxRangePushA,
           {
             // This thread has no open range between cases.
             EXPECT_EQ(roctxRangePushA(AnyMessage(rng)), 0);
             EXPECT_EQ(roctxRangePop(), 0);
           }),
      CASE(roctxRangePop, EXPECT_LT(roctxRangePop(), 0)),
      CASE(roctxRangeStartA,
           {
             const roctx_range_id_t id = roctxRangeStartA(AnyMessage(rng));
             EXPECT_NE(id, 0u);
             roctxRangeStop(id);
           }),
      CASE(
          roctxRangeStop,
          roctxRangeStop(rng() % 2 ? 0 : static_cast<roctx_range_id_t>(rng()))),
      // libroctx's own consumers: an operation it does not have is refused
      // before the pointer is stored; NULL callbacks register nothing.
      CASE(RegisterApiCallback,
           EXPECT_FALSE(RegisterApiCallback(
               ROCTX_API_ID_NUMBER + static_cast<uint32_t>(rng() % 1000),
               reinterpret_cast<void*>(static_cast<uintptr_t>(rng())),
               nullptr))),
      CASE(RemoveApiCallback,
           EXPECT_FALSE(RemoveApiCallback(
               ROCTX_API_ID_NUMBER + static_cast<uint32_t>(rng() % 1000)))),
      CASE(RangeStackIterate, RangeStackIterate(nullptr, nullptr)),
      CASE(roctxRegisterTracerCallback, roctxRegisterTracerCallback(nullptr)),
  };
  return cases;
}

constexpr auto kSdkOk = ROCPROFILER_STATUS_SUCCESS;
constexpr auto kSdkBadArg = ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
constexpr auto kSdkNoContext = ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
constexpr auto kSdkNoKind = ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
constexpr auto kSdkNoOp = ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
constexpr auto kSdkLocked = ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;

rocprofiler_callback_tracing_record_t Record(int32_t kind, int32_t op,
                                             int32_t phase, void* payload) {
  rocprofiler_callback_tracing_record_t r;
  std::memset(&r, 0, sizeof(r));
  SetRaw(&r.kind, kind);
  r.operation = op;
  SetRaw(&r.phase, phase);
  r.payload = payload;
  return r;
}

// Zeroed storage as large as any payload (HIP's args union is the largest).
struct alignas(16) AnyPayload {
  unsigned char bytes[sizeof(rocprofiler_callback_tracing_hip_api_data_t) +
                      sizeof(rocprofiler_callback_tracing_hsa_api_data_t)];
};

const std::vector<Case>& SdkCases() {
  static const std::vector<Case> cases = {
      CASE(rocprofiler_configure_callback_tracing_service,
           {
             // Outside a tool's initialize everything is locked, checked first.
             const rocprofiler_tracing_operation_t ops[1] = {
                 static_cast<rocprofiler_tracing_operation_t>(rng())};
             EXPECT_EQ(IntArgs(&rocprofiler_configure_callback_tracing_service)(
                           rng() % 2 ? g_context : BadContext(rng),
                           BadKind(rng), rng() % 2 ? ops : nullptr,
                           rng() % 2 ? ULONG_MAX : 1, nullptr, nullptr),
                       kSdkLocked);
           }),
      CASE(
          rocprofiler_configure_external_correlation_id_request_service,
          {
            // Outside a tool's initialize: locked, whatever the rest.
            const rocprofiler_external_correlation_id_request_kind_t kinds[1] =
                {static_cast<
                    rocprofiler_external_correlation_id_request_kind_t>(rng())};
            EXPECT_EQ(
                IntArgs(
                    &rocprofiler_configure_external_correlation_id_request_service)(
                    rng() % 2 ? g_context : BadContext(rng),
                    rng() % 2 ? kinds : nullptr, rng() % 2 ? SIZE_MAX : 1,
                    nullptr, nullptr),
                kSdkLocked);
          }),
      CASE(rocprofiler_at_intercept_table_registration,
           {
             // Outside registration: locked, whatever the arguments.
             EXPECT_EQ(IntArgs(&rocprofiler_at_intercept_table_registration)(
                           nullptr, static_cast<int>(rng()), nullptr),
                       kSdkLocked);
           }),
      CASE(rocprofiler_context_is_active,
           {
             int status = 7;
             EXPECT_EQ(rocprofiler_context_is_active(BadContext(rng), &status),
                       kSdkNoContext);
             EXPECT_EQ(status, 0);
             EXPECT_EQ(IntArgs(&rocprofiler_context_is_active)(g_context,
                                                               Null<int>()),
                       kSdkBadArg);
           }),
      CASE(rocprofiler_context_is_valid,
           {
             int status = 7;
             EXPECT_EQ(rocprofiler_context_is_valid(BadContext(rng), &status),
                       kSdkNoContext);
             EXPECT_EQ(status, 0);
             EXPECT_EQ(IntArgs(&rocprofiler_context_is_valid)(BadContext(rng),
                                                              Null<int>()),
                       kSdkBadArg);
           }),
      CASE(rocprofiler_create_context,
           {
             EXPECT_EQ(IntArgs(&rocprofiler_create_context)(
                           Null<rocprofiler_context_id_t>()),
                       kSdkBadArg);
             rocprofiler_context_id_t id{UINT64_MAX};
             EXPECT_EQ(rocprofiler_create_context(&id), kSdkLocked);
           }),
      CASE(rocprofiler_force_configure,
           EXPECT_EQ(rocprofiler_force_configure(nullptr), kSdkLocked)),
      CASE(rocprofiler_get_status_name,
           {
             const int32_t s = Pick(
                 rng, {-1, ROCPROFILER_STATUS_LAST, 999, INT32_MIN, INT32_MAX});
             EXPECT_EQ(IntArgs(&rocprofiler_get_status_name)(s), nullptr) << s;
           }),
      CASE(rocprofiler_get_status_string,
           {
             const int32_t s = Pick(
                 rng, {-1, ROCPROFILER_STATUS_LAST, 999, INT32_MIN, INT32_MAX});
             EXPECT_EQ(IntArgs(&rocprofiler_get_status_string)(s), nullptr)
                 << s;
           }),
      CASE(rocprofiler_get_thread_id,
           EXPECT_EQ(IntArgs(&rocprofiler_get_thread_id)(nullptr), kSdkBadArg)),
      CASE(rocprofiler_get_timestamp,
           EXPECT_EQ(rocprofiler_get_timestamp(nullptr), kSdkBadArg)),
      CASE(rocprofiler_get_version,
           EXPECT_EQ(rocprofiler_get_version(nullptr, nullptr, nullptr),
                     kSdkOk)),
      CASE(rocprofiler_is_finalized,
           EXPECT_EQ(IntArgs(&rocprofiler_is_finalized)(Null<int>()),
                     kSdkBadArg)),
      CASE(rocprofiler_is_initialized,
           EXPECT_EQ(IntArgs(&rocprofiler_is_initialized)(Null<int>()),
                     kSdkBadArg)),
      CASE(rocprofiler_iterate_callback_tracing_kind_operation_args,
           {
             AnyPayload payload{};
             const int32_t kind = BadKind(rng);
             EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                           Record(kind, 0, ROCPROFILER_CALLBACK_PHASE_ENTER,
                                  &payload),
                           &ArgVisitor, INT32_MAX, nullptr),
                       kSdkNoKind)
                 << kind;
           }),
      CASE(rocprofiler_iterate_callback_tracing_kind_operation_args,
           {
             AnyPayload payload{};
             const int32_t kind = TracedKind(rng);
             const int32_t op = Pick(rng, {-1, OpCountOfKind(kind), INT32_MAX});
             EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                           Record(kind, op, ROCPROFILER_CALLBACK_PHASE_EXIT,
                                  &payload),
                           &ArgVisitor, 1, nullptr),
                       kSdkNoOp)
                 << kind << " " << op;
             EXPECT_EQ(
                 rocprofiler_iterate_callback_tracing_kind_operation_args(
                     Record(kind, 0, ROCPROFILER_CALLBACK_PHASE_EXIT, nullptr),
                     &ArgVisitor, 1, nullptr),
                 kSdkBadArg);
             EXPECT_EQ(
                 rocprofiler_iterate_callback_tracing_kind_operation_args(
                     Record(kind, 0, ROCPROFILER_CALLBACK_PHASE_EXIT, &payload),
                     nullptr, 1, nullptr),
                 kSdkBadArg);
           }),
      CASE(rocprofiler_iterate_callback_tracing_kind_operation_args,
           {
             // A phase outside the enum and any depth: a zeroed payload is
             // iterated (NULL pointers are never followed).
             AnyPayload payload{};
             const int32_t kind = TracedKind(rng);
             const int32_t op = static_cast<int32_t>(
                 rng() % static_cast<uint64_t>(OpCountOfKind(kind)));
             EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                           Record(kind, op, Pick(rng, {-1, 3, 999, INT32_MAX}),
                                  &payload),
                           &ArgVisitor, Pick(rng, {INT32_MIN, -1, INT32_MAX}),
                           nullptr),
                       kSdkOk)
                 << kind << " " << op;
           }),
      CASE(rocprofiler_iterate_callback_tracing_kind_operations,
           {
             int32_t n = 0;
             const int32_t kind = BadKind(rng);
             EXPECT_EQ(
                 IntArgs(&rocprofiler_iterate_callback_tracing_kind_operations)(
                     kind, &CountOps, &n),
                 kSdkNoKind)
                 << kind;
             EXPECT_EQ(
                 IntArgs(&rocprofiler_iterate_callback_tracing_kind_operations)(
                     TracedKind(rng), nullptr, nullptr),
                 kSdkBadArg);
           }),
      CASE(rocprofiler_iterate_callback_tracing_kinds,
           EXPECT_EQ(
               rocprofiler_iterate_callback_tracing_kinds(nullptr, nullptr),
               kSdkBadArg)),
      CASE(rocprofiler_push_external_correlation_id,
           {
             rocprofiler_thread_id_t tid = 0;
             ASSERT_EQ(rocprofiler_get_thread_id(&tid), kSdkOk);
             EXPECT_EQ(rocprofiler_push_external_correlation_id(
                           BadContext(rng), tid, rocprofiler_user_data_t{1}),
                       kSdkNoContext);
             EXPECT_EQ(rocprofiler_push_external_correlation_id(
                           g_context, tid + 1 + rng() % 1000,
                           rocprofiler_user_data_t{1}),
                       kSdkBadArg);
             // Past the documented depth: OUT_OF_RESOURCES, then all pop back.
             for (int i = 0; i < 16; ++i) {
               EXPECT_EQ(
                   rocprofiler_push_external_correlation_id(
                       g_context, tid, rocprofiler_user_data_t{uint64_t(i)}),
                   kSdkOk);
             }
             EXPECT_EQ(rocprofiler_push_external_correlation_id(
                           g_context, tid, rocprofiler_user_data_t{99}),
                       ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
             for (int i = 15; i >= 0; --i) {
               rocprofiler_user_data_t v{};
               EXPECT_EQ(
                   rocprofiler_pop_external_correlation_id(g_context, tid, &v),
                   kSdkOk);
               EXPECT_EQ(v.value, uint64_t(i));
             }
           }),
      CASE(rocprofiler_pop_external_correlation_id,
           {
             rocprofiler_thread_id_t tid = 0;
             ASSERT_EQ(rocprofiler_get_thread_id(&tid), kSdkOk);
             rocprofiler_user_data_t v{7};
             EXPECT_EQ(rocprofiler_pop_external_correlation_id(BadContext(rng),
                                                               tid, &v),
                       kSdkNoContext);
             EXPECT_EQ(rocprofiler_pop_external_correlation_id(g_context,
                                                               tid + 1, &v),
                       kSdkBadArg);
             // Empty stack: ERROR with 0 stored (sdk/README.md).
             EXPECT_EQ(
                 rocprofiler_pop_external_correlation_id(g_context, tid, &v),
                 ROCPROFILER_STATUS_ERROR);
             EXPECT_EQ(v.value, 0u);
             EXPECT_EQ(rocprofiler_pop_external_correlation_id(g_context, tid,
                                                               nullptr),
                       ROCPROFILER_STATUS_ERROR);
           }),
      CASE(rocprofiler_query_callback_tracing_kind_name,
           {
             const char* name = "x";
             uint64_t len = 5;
             const int32_t kind = BadKind(rng);
             EXPECT_EQ(IntArgs(&rocprofiler_query_callback_tracing_kind_name)(
                           kind, &name, &len),
                       kSdkNoKind)
                 << kind;
             EXPECT_EQ(IntArgs(&rocprofiler_query_callback_tracing_kind_name)(
                           TracedKind(rng), nullptr, nullptr),
                       kSdkOk);
           }),
      CASE(rocprofiler_query_callback_tracing_kind_operation_name,
           {
             const int32_t kind = BadKind(rng);
             EXPECT_EQ(
                 IntArgs(
                     &rocprofiler_query_callback_tracing_kind_operation_name)(
                     kind, 0, nullptr, nullptr),
                 kSdkNoKind)
                 << kind;
             const int32_t traced = TracedKind(rng);
             const int32_t op =
                 Pick(rng, {-1, OpCountOfKind(traced), INT32_MAX, INT32_MIN});
             EXPECT_EQ(
                 IntArgs(
                     &rocprofiler_query_callback_tracing_kind_operation_name)(
                     traced, op, nullptr, nullptr),
                 kSdkNoOp)
                 << traced << " " << op;
           }),
      CASE(
          rocprofiler_start_context,
          EXPECT_EQ(rocprofiler_start_context(BadContext(rng)), kSdkNoContext)),
      CASE(rocprofiler_stop_context,
           EXPECT_EQ(rocprofiler_stop_context(BadContext(rng)), kSdkNoContext)),
      // Buffers and buffer tracing: configuration is locked after the
      // tool's initialize; handles of buffers never created are unknown.
      CASE(rocprofiler_create_buffer,
           {
             rocprofiler_buffer_id_t id{0};
             EXPECT_EQ(
                 rocprofiler_create_buffer(
                     g_context, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                     [](rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                        rocprofiler_record_header_t**, size_t, void*,
                        uint64_t) {},
                     nullptr, &id),
                 kSdkLocked);
             EXPECT_EQ(IntArgs(&rocprofiler_create_buffer)(
                           BadContext(rng), 0, 1, -1, nullptr, nullptr,
                           Null<rocprofiler_buffer_id_t>()),
                       kSdkLocked);
           }),
      CASE(rocprofiler_configure_buffer_tracing_service,
           EXPECT_EQ(IntArgs(&rocprofiler_configure_buffer_tracing_service)(
                         BadContext(rng), BadBufferKind(rng), nullptr, 0,
                         BadBuffer(rng)),
                     kSdkLocked)),
      CASE(rocprofiler_flush_buffer,
           EXPECT_EQ(rocprofiler_flush_buffer(BadBuffer(rng)),
                     ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND)),
      CASE(rocprofiler_destroy_buffer,
           EXPECT_EQ(rocprofiler_destroy_buffer(BadBuffer(rng)),
                     ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND)),
      CASE(rocprofiler_create_callback_thread,
           EXPECT_EQ(IntArgs(&rocprofiler_create_callback_thread)(
                         Null<rocprofiler_callback_thread_t>()),
                     kSdkLocked)),
      CASE(rocprofiler_assign_callback_thread,
           EXPECT_EQ(rocprofiler_assign_callback_thread(
                         BadBuffer(rng), rocprofiler_callback_thread_t{rng()}),
                     ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND)),
      // Nothing to call: accepted, as rocprofiler-sdk does, and kept nowhere.
      CASE(rocprofiler_at_internal_thread_create,
           EXPECT_EQ(rocprofiler_at_internal_thread_create(
                         nullptr, nullptr, static_cast<int>(rng()), nullptr),
                     kSdkOk)),
      CASE(rocprofiler_query_buffer_tracing_kind_name,
           {
             const char* name = "x";
             uint64_t len = 5;
             EXPECT_EQ(IntArgs(&rocprofiler_query_buffer_tracing_kind_name)(
                           BadBufferKind(rng), &name, &len),
                       kSdkNoKind);
             EXPECT_EQ(
                 IntArgs(&rocprofiler_query_buffer_tracing_kind_name)(
                     ROCPROFILER_BUFFER_TRACING_KFD_QUEUE, nullptr, nullptr),
                 kSdkOk);
           }),
      CASE(rocprofiler_query_buffer_tracing_kind_operation_name,
           {
             const char* name = "x";
             EXPECT_EQ(
                 IntArgs(&rocprofiler_query_buffer_tracing_kind_operation_name)(
                     BadBufferKind(rng), 0, &name, nullptr),
                 kSdkNoKind);
             const int32_t op = Pick(rng, {-1, 100000, INT32_MIN, INT32_MAX});
             EXPECT_EQ(
                 IntArgs(&rocprofiler_query_buffer_tracing_kind_operation_name)(
                     ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, op, &name,
                     nullptr),
                 kSdkNoOp);
             // A kind without operations here.
             EXPECT_EQ(
                 IntArgs(&rocprofiler_query_buffer_tracing_kind_operation_name)(
                     ROCPROFILER_BUFFER_TRACING_KFD_QUEUE, 0, &name, nullptr),
                 kSdkNoOp);
           }),
      CASE(rocprofiler_iterate_buffer_tracing_kinds,
           EXPECT_EQ(rocprofiler_iterate_buffer_tracing_kinds(nullptr, nullptr),
                     kSdkBadArg)),
      CASE(rocprofiler_iterate_buffer_tracing_record_args,
           {
             rocprofiler_buffer_tracing_hsa_api_record_t record{};
             rocprofiler_record_header_t h{};
             h.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
             h.kind = static_cast<uint32_t>(BadBufferKind(rng));
             h.payload = &record;
             auto cb = [](rocprofiler_buffer_tracing_kind_t, int32_t, uint32_t,
                          const void* const, int32_t, const char*, const char*,
                          const char*, void*) { return 0; };
             EXPECT_EQ(
                 rocprofiler_iterate_buffer_tracing_record_args(h, cb, nullptr),
                 kSdkBadArg);
             h.kind = ROCPROFILER_BUFFER_TRACING_HSA_CORE_API;
             EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(
                           h, nullptr, nullptr),
                       kSdkBadArg);
             h.payload = nullptr;
             EXPECT_EQ(
                 rocprofiler_iterate_buffer_tracing_record_args(h, cb, nullptr),
                 kSdkBadArg);
           }),
      CASE(rocprofiler_iterate_buffer_tracing_kind_operations,
           {
             EXPECT_EQ(
                 IntArgs(&rocprofiler_iterate_buffer_tracing_kind_operations)(
                     ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, nullptr),
                 kSdkBadArg);
             EXPECT_EQ(
                 IntArgs(&rocprofiler_iterate_buffer_tracing_kind_operations)(
                     BadBufferKind(rng),
                     [](rocprofiler_buffer_tracing_kind_t, int32_t, void*) {
                       return 0;
                     },
                     nullptr),
                 kSdkNoKind);
           }),
      // Agents: only bad input here (a valid query would start the HSA
      // runtime).
      CASE(rocprofiler_query_available_agents,
           {
             auto cb = [](rocprofiler_agent_version_t, const void**, size_t,
                          void*) { return ROCPROFILER_STATUS_SUCCESS; };
             EXPECT_EQ(IntArgs(&rocprofiler_query_available_agents)(
                           ROCPROFILER_AGENT_INFO_VERSION_0, nullptr,
                           sizeof(rocprofiler_agent_v0_t), nullptr),
                       kSdkBadArg);
             EXPECT_EQ(IntArgs(&rocprofiler_query_available_agents)(
                           Pick(rng, {0, 2, -1, 999}), +cb,
                           sizeof(rocprofiler_agent_v0_t), nullptr),
                       kSdkBadArg);
             EXPECT_EQ(rocprofiler_query_available_agents(
                           ROCPROFILER_AGENT_INFO_VERSION_0, +cb,
                           Pick(rng, {0, 8, 303, 305, 100000}), nullptr),
                       ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI);
           }),
      CASE(rocprofiler_record_header_compute_hash,
           {
             const uint32_t category = static_cast<uint32_t>(rng());
             const uint32_t kind = static_cast<uint32_t>(rng());
             EXPECT_EQ(rocprofiler_record_header_compute_hash(category, kind),
                       (uint64_t{kind} << 32) | category);
           }),
      CASE(
          rocprofiler_query_external_correlation_id_request_kind_name,
          {
            const char* name = "x";
            uint64_t len = 5;
            EXPECT_EQ(
                IntArgs(
                    &rocprofiler_query_external_correlation_id_request_kind_name)(
                    Pick(rng, {0, 19, -1, 999, INT32_MIN, INT32_MAX}), &name,
                    &len),
                kSdkNoKind);
            EXPECT_EQ(
                rocprofiler_query_external_correlation_id_request_kind_name(
                    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_RANGE_API,
                    nullptr, nullptr),
                kSdkOk);
          }),
      CASE(rocprofiler_get_version_triplet,
           EXPECT_EQ(IntArgs(&rocprofiler_get_version_triplet)(
                         Null<rocprofiler_version_triplet_t>()),
                     kSdkBadArg)),
  };
  return cases;
}

// A pool whose allocator fails: the documented status, no pool.
void NullAllocator(char** ptr, size_t size, void*) {
  if (size != 0) *ptr = nullptr;  // allocation and reallocation fail
}

const std::vector<Case>& PoolCases() {
  static const std::vector<Case> cases = {
      CASE(roctracer_open_pool_expl,
           {
             roctracer_properties_t p{};
             p.buffer_size = 4096;
             p.buffer_callback_fun = &NoopBuffer;
             p.alloc_fun = &NullAllocator;
             roctracer_pool_t* pool = nullptr;
             const roctracer_status_t s = roctracer_open_pool_expl(&p, &pool);
             EXPECT_EQ(s, ROCTRACER_STATUS_ERROR_MEMORY_ALLOCATION)
                 << "an alloc_fun returning NULL";
             if (s == kSuccess) roctracer_close_pool_expl(pool);
           }),
  };
  return cases;
}

// The services that need GPU hardware (sdk/README.md, "Services that need
// hardware"): bad input only, none of it reaching the agent list (a valid
// agent query would start the HSA runtime). Configuration from outside a
// tool's initialize is CONFIGURATION_LOCKED whatever the arguments.
rocprofiler_counter_id_t AnyCounter(Rng& rng) {
  return rocprofiler_counter_id_t{rng()};
}

constexpr auto kSdkNotImplemented = ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
constexpr auto kSdkNoCounter = ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;

const std::vector<Case>& HardwareServiceCases() {
  static const std::vector<Case> cases = {
      CASE(rocprofiler_query_record_counter_id,
           EXPECT_EQ(IntArgs(&rocprofiler_query_record_counter_id)(
                         rng(), Null<rocprofiler_counter_id_t>()),
                     kSdkBadArg)),
      CASE(rocprofiler_query_record_dimension_position,
           EXPECT_EQ(IntArgs(&rocprofiler_query_record_dimension_position)(
                         rng(), rng(), Null<size_t>()),
                     kSdkBadArg)),
      CASE(rocprofiler_query_counter_info,
           {
             rocprofiler_counter_info_v1_t info;
             EXPECT_EQ(IntArgs(&rocprofiler_query_counter_info)(
                           AnyCounter(rng), Pick(rng, {0, 3, -1, 999}), &info),
                       ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI);
             EXPECT_EQ(IntArgs(&rocprofiler_query_counter_info)(
                           AnyCounter(rng), Pick(rng, {1, 2}), Null<void>()),
                       kSdkBadArg);
             EXPECT_EQ(IntArgs(&rocprofiler_query_counter_info)(
                           AnyCounter(rng), Pick(rng, {1, 2}), &info),
                       kSdkNoCounter);
           }),
      CASE(rocprofiler_iterate_agent_supported_counters,
           EXPECT_EQ(IntArgs(&rocprofiler_iterate_agent_supported_counters)(
                         rocprofiler_agent_id_t{rng()},
                         Null<rocprofiler_status_t(rocprofiler_agent_id_t,
                                                   rocprofiler_counter_id_t*,
                                                   size_t, void*)>(),
                         nullptr),
                     kSdkBadArg)),
      CASE(rocprofiler_create_counter,
           {
             rocprofiler_counter_id_t id{0};
             EXPECT_EQ(IntArgs(&rocprofiler_create_counter)(
                           Null<const char>(), rng(), "x", 1, nullptr, 0,
                           rocprofiler_agent_id_t{rng()}, &id),
                       kSdkBadArg);
             EXPECT_EQ(
                 IntArgs(&rocprofiler_create_counter)(
                     "x", 1, "y", 1, nullptr, 0, rocprofiler_agent_id_t{rng()},
                     Null<rocprofiler_counter_id_t>()),
                 kSdkBadArg);
           }),
      CASE(rocprofiler_iterate_counter_dimensions,
           {
             EXPECT_EQ(
                 IntArgs(&rocprofiler_iterate_counter_dimensions)(
                     AnyCounter(rng),
                     Null<rocprofiler_status_t(
                         rocprofiler_counter_id_t,
                         const rocprofiler_counter_record_dimension_info_t*,
                         size_t, void*)>(),
                     nullptr),
                 kSdkBadArg);
             EXPECT_EQ(
                 rocprofiler_iterate_counter_dimensions(
                     AnyCounter(rng),
                     [](rocprofiler_counter_id_t,
                        const rocprofiler_counter_record_dimension_info_t*,
                        size_t, void*) { return kSdkOk; },
                     nullptr),
                 kSdkNoCounter);
           }),
      CASE(rocprofiler_query_counter_instance_count,
           EXPECT_EQ(IntArgs(&rocprofiler_query_counter_instance_count)(
                         rocprofiler_agent_id_t{rng()}, AnyCounter(rng),
                         Null<size_t>()),
                     kSdkBadArg)),
      CASE(rocprofiler_create_counter_config,
           {
             rocprofiler_counter_config_id_t config{0};
             EXPECT_EQ(
                 IntArgs(&rocprofiler_create_counter_config)(
                     rocprofiler_agent_id_t{rng()},
                     Null<rocprofiler_counter_id_t>(), 1 + rng() % 9, &config),
                 kSdkBadArg);
             EXPECT_EQ(IntArgs(&rocprofiler_create_counter_config)(
                           rocprofiler_agent_id_t{rng()}, nullptr, 0,
                           Null<rocprofiler_counter_config_id_t>()),
                       kSdkBadArg);
           }),
      CASE(rocprofiler_destroy_counter_config,
           EXPECT_EQ(rocprofiler_destroy_counter_config(
                         rocprofiler_counter_config_id_t{rng()}),
                     kSdkNotImplemented)),
      CASE(rocprofiler_load_counter_definition,
           EXPECT_EQ(IntArgs(&rocprofiler_load_counter_definition)(
                         Null<const char>(), 1 + rng() % 100,
                         Pick(rng, {0, 1, 2, -1})),
                     kSdkBadArg)),
      CASE(rocprofiler_configure_device_counting_service,
           EXPECT_EQ(rocprofiler_configure_device_counting_service(
                         BadContext(rng), rocprofiler_buffer_id_t{rng()},
                         rocprofiler_agent_id_t{rng()},
                         [](rocprofiler_context_id_t, rocprofiler_agent_id_t,
                            rocprofiler_device_counting_agent_cb_t, void*) {},
                         nullptr),
                     kSdkLocked)),
      CASE(rocprofiler_sample_device_counting_service,
           {
             size_t n = rng() % 8;
             rocprofiler_counter_record_t records[8];
             EXPECT_EQ(IntArgs(&rocprofiler_sample_device_counting_service)(
                           rocprofiler_context_id_t{0},
                           rocprofiler_user_data_t{rng()}, Pick(rng, {0, 1, 7}),
                           records, &n),
                       kSdkNoContext);
             EXPECT_EQ(IntArgs(&rocprofiler_sample_device_counting_service)(
                           g_context, rocprofiler_user_data_t{rng()},
                           Pick(rng, {0, 1, 7}), records, Null<size_t>()),
                       kSdkBadArg);
           }),
      CASE(rocprofiler_configure_buffer_dispatch_counting_service,
           EXPECT_EQ(rocprofiler_configure_buffer_dispatch_counting_service(
                         BadContext(rng), rocprofiler_buffer_id_t{rng()},
                         nullptr, nullptr),
                     kSdkLocked)),
      CASE(rocprofiler_configure_callback_dispatch_counting_service,
           EXPECT_EQ(rocprofiler_configure_callback_dispatch_counting_service(
                         g_context, nullptr, nullptr, nullptr, nullptr),
                     kSdkLocked)),
      CASE(rocprofiler_configure_spm_service,
           EXPECT_EQ(rocprofiler_configure_spm_service(
                         BadContext(rng), rocprofiler_buffer_id_t{rng()},
                         rocprofiler_counter_config_id_t{rng()}, rng()),
                     kSdkLocked)),
      CASE(rocprofiler_configure_pc_sampling_service,
           EXPECT_EQ(
               IntArgs(&rocprofiler_configure_pc_sampling_service)(
                   BadContext(rng), rocprofiler_agent_id_t{rng()},
                   Pick(rng, {0, 1, 2, 3, -1}), Pick(rng, {0, 1, 2, 3, 4, -1}),
                   rng(), rocprofiler_buffer_id_t{rng()},
                   static_cast<int>(rng())),
               kSdkNotImplemented)),
      CASE(rocprofiler_query_pc_sampling_agent_configurations,
           EXPECT_EQ(
               IntArgs(&rocprofiler_query_pc_sampling_agent_configurations)(
                   rocprofiler_agent_id_t{rng()},
                   Null<rocprofiler_status_t(
                       const rocprofiler_pc_sampling_configuration_t*, size_t,
                       void*)>(),
                   nullptr),
               kSdkBadArg)),
      CASE(
          rocprofiler_get_pc_sampling_instruction_type_name,
          EXPECT_EQ(IntArgs(&rocprofiler_get_pc_sampling_instruction_type_name)(
                        Pick(rng, {-1, 17, 999, INT32_MIN, INT32_MAX})),
                    nullptr)),
      CASE(
          rocprofiler_get_pc_sampling_instruction_not_issued_reason_name,
          EXPECT_EQ(
              IntArgs(
                  &rocprofiler_get_pc_sampling_instruction_not_issued_reason_name)(
                  Pick(rng, {-1, 10, 999, INT32_MIN, INT32_MAX})),
              nullptr)),
      CASE(
          rocprofiler_configure_device_thread_trace_service,
          EXPECT_EQ(rocprofiler_configure_device_thread_trace_service(
                        BadContext(rng), rocprofiler_agent_id_t{rng()}, nullptr,
                        rng() % 4, nullptr, rocprofiler_user_data_t{0}),
                    kSdkLocked)),
      CASE(rocprofiler_configure_dispatch_thread_trace_service,
           EXPECT_EQ(rocprofiler_configure_dispatch_thread_trace_service(
                         BadContext(rng), rocprofiler_agent_id_t{rng()},
                         nullptr, rng() % 4, nullptr, nullptr, nullptr),
                     kSdkLocked)),
      CASE(rocprofiler_thread_trace_decoder_create,
           {
             rocprofiler_thread_trace_decoder_handle_t h{0};
             EXPECT_EQ(
                 IntArgs(&rocprofiler_thread_trace_decoder_create)(
                     Null<rocprofiler_thread_trace_decoder_handle_t>(), "/"),
                 kSdkBadArg);
             EXPECT_EQ(IntArgs(&rocprofiler_thread_trace_decoder_create)(
                           &h, Null<const char>()),
                       kSdkBadArg);
           }),
      CASE(rocprofiler_thread_trace_decoder_destroy,
           rocprofiler_thread_trace_decoder_destroy(
               rocprofiler_thread_trace_decoder_handle_t{rng()})),
      CASE(rocprofiler_thread_trace_decoder_codeobj_load,
           EXPECT_EQ(IntArgs(&rocprofiler_thread_trace_decoder_codeobj_load)(
                         rocprofiler_thread_trace_decoder_handle_t{rng()},
                         rng(), rng(), rng(), Null<const void>(), rng()),
                     kSdkBadArg)),
      CASE(rocprofiler_thread_trace_decoder_codeobj_unload,
           EXPECT_EQ(
               rocprofiler_thread_trace_decoder_codeobj_unload(
                   rocprofiler_thread_trace_decoder_handle_t{rng()}, rng()),
               kSdkBadArg)),
      CASE(rocprofiler_trace_decode,
           EXPECT_EQ(
               IntArgs(&rocprofiler_trace_decode)(
                   rocprofiler_thread_trace_decoder_handle_t{rng()},
                   Null<void(rocprofiler_thread_trace_decoder_record_type_t,
                             void*, uint64_t, void*)>(),
                   Null<void>(), rng(), nullptr),
               kSdkBadArg)),
      CASE(rocprofiler_thread_trace_decoder_info_string,
           EXPECT_EQ(IntArgs(&rocprofiler_thread_trace_decoder_info_string)(
                         rocprofiler_thread_trace_decoder_handle_t{rng()},
                         Pick(rng, {0, 1, 2, 3, -1})),
                     nullptr)),
      CASE(rocprofiler_ompt_is_initialized,
           EXPECT_EQ(IntArgs(&rocprofiler_ompt_is_initialized)(Null<int>()),
                     kSdkBadArg)),
      CASE(rocprofiler_ompt_is_finalized,
           EXPECT_EQ(IntArgs(&rocprofiler_ompt_is_finalized)(Null<int>()),
                     kSdkBadArg)),
      CASE(rocprofiler_ompt_start_tool,
           EXPECT_EQ(rocprofiler_ompt_start_tool(static_cast<unsigned>(rng()),
                                                 rng() % 2 ? nullptr : "x"),
                     nullptr)),
      CASE(rocprofiler_query_intercept_table_name,
           {
             const char* name = "x";
             uint64_t len = 5;
             EXPECT_EQ(IntArgs(&rocprofiler_query_intercept_table_name)(
                           Pick(rng, {0, 3, 5, 512, -1, INT32_MIN, INT32_MAX}),
                           &name, &len),
                       kSdkNoKind);
             EXPECT_EQ(name, nullptr);
             EXPECT_EQ(len, 0u);
             EXPECT_EQ(IntArgs(&rocprofiler_query_intercept_table_name)(
                           Pick(rng, {1, 2, 4, 8, 16, 32, 64, 128, 256}),
                           nullptr, nullptr),
                       kSdkOk);
           }),
  };
  return cases;
}

std::vector<Case> AllCases() {
  std::vector<Case> all;
  for (const auto* list : {&RoctracerCases(), &RoctxCases(), &SdkCases(),
                           &HardwareServiceCases()}) {
    all.insert(all.end(), list->begin(), list->end());
  }
  all.insert(all.end(), PoolCases().begin(), PoolCases().end());
  return all;
}

// ---- the tool whose context the SDK cases use ------------------------------

// Every traced marker goes through argument iteration, as far as it goes.
void ToolCallback(rocprofiler_callback_tracing_record_t record,
                  rocprofiler_user_data_t*, void*) {
  EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                record, &ArgVisitor, INT32_MAX, nullptr),
            kSdkOk);
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != kSdkOk) return 1;
  if (rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, nullptr, 0,
          &ToolCallback, nullptr) != kSdkOk) {
    return 1;
  }
  return rocprofiler_start_context(g_context) == kSdkOk ? 0 : 1;
}

// ---- the test --------------------------------------------------------------

// Global names of the version scripts' nodes, without the private rocTX link
// (runtime/private/roctx_link.h) and data symbols.
std::set<std::string> ExportedFunctions() {
  std::set<std::string> names;
  for (const std::string& path : g_maps) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    std::string line;
    bool global = false;
    while (std::getline(in, line)) {
      if (line.find("global:") != std::string::npos) global = true;
      if (line.find("local:") != std::string::npos) global = false;
      if (line.find('}') != std::string::npos) global = false;
      // "    name;" lines only (comments and node headers have other shapes).
      const size_t begin = line.find_first_not_of(" \t");
      const size_t end = line.find(';');
      if (!global || begin == std::string::npos || end == std::string::npos ||
          begin == 0 || line.find_first_of(" \t/*:", begin) < end) {
        continue;
      }
      names.insert(line.substr(begin, end - begin));
    }
  }
  for (const char* n :
       {"roctracer_internal_roctx_attach", "roctracer_internal_roctx_detach",
        "roctracer_internal_gpu_add_observer",
        "roctracer_internal_gpu_remove_observer", "roctx_internal_link",
        "HSA_AMD_TOOL_PRIORITY"}) {
    names.erase(n);
  }
  return names;
}

TEST(BadInput, EveryPublicFunctionHasACase) {
  std::set<std::string> covered;
  for (const Case& c : AllCases()) covered.insert(c.function);
  const std::set<std::string> exported = ExportedFunctions();
  EXPECT_GT(exported.size(), 60u);
  for (const std::string& n : exported) {
    EXPECT_TRUE(covered.count(n)) << n << " has no bad-input case";
  }
}

TEST(BadInput, RandomCasesFromSeveralThreads) {
  // Facts the cases draw on, from the public API.
  for (uint32_t d = 0; d < ACTIVITY_DOMAIN_NUMBER; ++d) {
    uint32_t n = 0;
    while (roctracer_op_string(d, n, 0) != nullptr) ++n;
    g_op_count[d] = n;
    if (n > 0) g_valid_domains.push_back(d);
  }
  ASSERT_FALSE(g_valid_domains.empty());
  g_huge.assign(1 << 20, 'x');
  roctracer_properties_t p{};
  p.buffer_size = 4096;
  p.buffer_callback_fun = &NoopBuffer;
  ASSERT_EQ(roctracer_open_pool_expl(&p, &g_closed_pool), kSuccess);
  ASSERT_EQ(roctracer_close_pool_expl(g_closed_pool), kSuccess);
  ASSERT_EQ(rocprofiler_force_configure(&sdk_test::UnnamedConfigure<&ToolInit>),
            kSdkOk);
  ASSERT_NE(g_context.handle, 0u);

  const std::vector<Case> cases = AllCases();
  std::vector<std::thread> threads;
  for (int t = 0; t < g_threads; ++t) {
    threads.emplace_back([&cases, t] {
      Rng rng(g_seed + static_cast<uint64_t>(t));
      for (int i = 0; i < g_iterations; ++i) {
        const Case& c = cases[rng() % cases.size()];
        SCOPED_TRACE(c.function);
        c.run(rng);
        if (testing::Test::HasFailure()) {
          std::fprintf(stderr,
                       "thread %d, case %d (%s) failed; seed %" PRIu64 "\n", t,
                       i, c.function, g_seed);
          return;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  // The state the cases ran against is unchanged.
  int active = 0;
  EXPECT_EQ(rocprofiler_context_is_active(g_context, &active), kSdkOk);
  EXPECT_EQ(active, 1);
  EXPECT_EQ(roctracer_default_pool(), nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  g_seed = std::random_device{}();
  if (const char* s = std::getenv("ROBUSTNESS_SEED")) {
    g_seed = std::strtoull(s, nullptr, 0);
  }
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--seed=", 0) == 0) {
      g_seed = std::strtoull(a.c_str() + 7, nullptr, 0);
    } else if (a.rfind("--threads=", 0) == 0) {
      g_threads = std::atoi(a.c_str() + 10);
    } else if (a.rfind("--iterations=", 0) == 0) {
      g_iterations = std::atoi(a.c_str() + 13);
    } else if (a.rfind("--map=", 0) == 0) {
      g_maps.push_back(a.substr(6));
    }
  }
  std::printf("bad_input_test: seed %" PRIu64 " (rerun with --seed=%" PRIu64
              "), %d thread(s) x %d cases\n",
              g_seed, g_seed, g_threads, g_iterations);
  std::fflush(stdout);
  return RUN_ALL_TESTS();
}
