// Enter/Exit semantics and guards on the path an HSA call takes in a traced
// program: the tracer, linked statically with its C-symbol stubs (to reach
// its internals), is loaded by softhsa (//softhsa, linked as the program's
// libhsa-runtime64.so.1) at hsa_init through HSA_TOOLS_LIB, as ROCR loads a
// tool (libprogram_tool.so hands the runtime's OnLoad call to this
// program's tracer). Under the tracer's wrappers this test puts its own
// functions into the runtime's table first, as a tool loaded before the
// tracer would: they count the calls that reach the runtime and make nested
// calls through the table on demand. A call then goes
// app -> symbol stub (this binary) -> softhsa's exported function -> the
// runtime's table -> table wrapper -> this test's layer -> softhsa.
#include <gtest/gtest.h>
#include <hsa/hsa_api_trace.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <roctracer_roctx.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "api_domain_tables.h"
#include "hsa_table_fill.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/intercept/api_hook.h"
#include "runtime/intercept/string_arena.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/private/roctx_link.h"
#include "tests/core/reset.h"
#include "tests/intercept/program_tool.h"

extern "C" bool OnLoad(HsaApiTable*, uint64_t, uint64_t, const char* const*);
extern "C" void OnUnload();

namespace {

struct Call {
  uint32_t domain, op, phase;
  uint64_t id, parent;
  uint64_t phase_data;
};

std::vector<Call> g_callbacks;
std::vector<Call> g_consumed;
HsaApiTable* g_table = nullptr;  // the runtime's, as OnLoad got it
CoreApiTable g_runtime;          // its core slots before this test's layer
int g_impl_calls = 0;            // calls that reached the runtime
bool g_nest = false;
bool g_other_thread = false;
std::string g_seen_string;
const char* g_seen_pointer = nullptr;
const char* g_runtime_got = nullptr;  // the name the runtime was given

hsa_status_t StatusStringBelow(hsa_status_t status, const char** text) {
  ++g_impl_calls;
  // A different API called from inside the runtime: a nested traced call.
  if (g_nest) {
    uint16_t major;
    g_table->core_->hsa_system_get_info_fn(HSA_SYSTEM_INFO_VERSION_MAJOR,
                                           &major);
  }
  // The same call on another thread while this one is in progress.
  if (g_other_thread) {
    std::thread([] {
      uint16_t major;
      g_table->core_->hsa_system_get_info_fn(HSA_SYSTEM_INFO_VERSION_MAJOR,
                                             &major);
    }).join();
  }
  return g_runtime.hsa_status_string_fn(status, text);
}

hsa_status_t SystemGetInfoBelow(hsa_system_info_t attribute, void* value) {
  ++g_impl_calls;
  return g_runtime.hsa_system_get_info_fn(attribute, value);
}

hsa_status_t GetSymbolByNameBelow(hsa_executable_t executable, const char* name,
                                  const hsa_agent_t* agent,
                                  hsa_executable_symbol_t* symbol) {
  ++g_impl_calls;
  g_runtime_got = name;
  return g_runtime.hsa_executable_get_symbol_by_name_fn(executable, name, agent,
                                                        symbol);
}

// What the runtime calls for the tool: this test's layer, then the tracer's
// OnLoad on top of it; at unload the reverse.
bool LoadLayerAndTracer(HsaApiTable* table, uint64_t version, uint64_t failed,
                        const char* const* failed_names) {
  g_table = table;
  CoreApiTable& core = *table->core_;
  g_runtime = core;
  core.hsa_status_string_fn = &StatusStringBelow;
  core.hsa_system_get_info_fn = &SystemGetInfoBelow;
  core.hsa_executable_get_symbol_by_name_fn = &GetSymbolByNameBelow;
  return OnLoad(table, version, failed, failed_names);
}

void UnloadTracerAndLayer() {
  OnUnload();
  *g_table->core_ = g_runtime;
}

void Callback(uint32_t domain, uint32_t op, const void* data, void* arg) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  if (d->phase == ACTIVITY_API_PHASE_ENTER) {
    *d->phase_data = d->correlation_id * 10;  // read back at EXIT
    if (op == HSA_API_ID_hsa_executable_get_symbol_by_name) {
      g_seen_pointer = d->args.hsa_executable_get_symbol_by_name.symbol_name;
      g_seen_string = g_seen_pointer;
    }
  }
  g_callbacks.push_back(
      {domain, op, d->phase, d->correlation_id, 0, *d->phase_data});
  // A callback calling the API it traces: runs untraced, no recursion.
  if (arg != nullptr) {
    const char* text;
    hsa_status_string(HSA_STATUS_SUCCESS, &text);
  }
}

void Consumer(const roctracer::ApiCallInfo& info) noexcept {
  uint64_t phase_data = 0;
  if (info.domain == ACTIVITY_DOMAIN_HSA_API) {
    phase_data = reinterpret_cast<uintptr_t>(
        static_cast<hsa_api_data_t*>(info.api_data)->phase_data);
  }
  g_consumed.push_back({info.domain, info.op, info.phase, info.correlation_id,
                        info.parent_correlation_id, phase_data});
}

class HookTest : public roctracer_test::TracerTest {
 protected:
  void SetUp() override {
    program_tool_register(&LoadLayerAndTracer, &UnloadTracerAndLayer);
    setenv("HSA_TOOLS_LIB", "libprogram_tool.so", 1);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    ASSERT_NE(g_table, nullptr);
    // The tracer's wrappers are in the slots, over this test's layer.
    ASSERT_NE(g_table->core_->hsa_status_string_fn, &StatusStringBelow);
    g_callbacks.clear();
    g_consumed.clear();
    g_impl_calls = 0;
    g_nest = false;
    g_other_thread = false;
    g_runtime_got = nullptr;
  }
  void TearDown() override {
    roctracer::SetApiConsumer(nullptr);
    for (uint32_t op = 0; op < HSA_API_ID_NUMBER; ++op) {
      roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_HSA_API, op, false);
    }
    EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);  // the tracer's OnUnload
    roctracer_test::TracerTest::TearDown();
  }
};

TEST_F(HookTest, ACallReachingTwoWrappersIsTracedOnce) {
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                         HSA_API_ID_hsa_status_string,
                                         &Callback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  const char* direct = nullptr;
  ASSERT_EQ(g_runtime.hsa_status_string_fn(HSA_STATUS_ERROR, &direct),
            HSA_STATUS_SUCCESS);
  const char* text = nullptr;
  // Symbol stub (this binary) -> softhsa -> table wrapper -> runtime.
  EXPECT_EQ(hsa_status_string(HSA_STATUS_ERROR, &text), HSA_STATUS_SUCCESS);
  EXPECT_STREQ(text, direct);
  EXPECT_EQ(g_impl_calls, 1);
  ASSERT_EQ(g_callbacks.size(), 2u);
  EXPECT_EQ(g_callbacks[0].phase, ACTIVITY_API_PHASE_ENTER);
  EXPECT_EQ(g_callbacks[1].phase, ACTIVITY_API_PHASE_EXIT);
  EXPECT_EQ(g_callbacks[0].id, g_callbacks[1].id);
  // phase_data written at ENTER is there at EXIT.
  EXPECT_EQ(g_callbacks[1].phase_data, g_callbacks[0].id * 10);
}

TEST_F(HookTest, NestedCallsGetTheirOwnIdAndTheirParent) {
  roctracer::SetApiConsumer(&Consumer);
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string, true));
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info, true));
  g_nest = true;
  const char* text;
  hsa_status_string(HSA_STATUS_SUCCESS, &text);
  ASSERT_EQ(g_consumed.size(), 4u);
  const Call& outer = g_consumed[0];
  const Call& inner = g_consumed[1];
  EXPECT_EQ(outer.op, HSA_API_ID_hsa_status_string);
  EXPECT_EQ(outer.parent, 0u);
  EXPECT_EQ(inner.op, HSA_API_ID_hsa_system_get_info);
  EXPECT_EQ(inner.phase, ACTIVITY_API_PHASE_ENTER);
  EXPECT_EQ(inner.parent, outer.id);
  EXPECT_NE(inner.id, outer.id);
  EXPECT_EQ(g_consumed[2].id, inner.id);
  EXPECT_EQ(g_consumed[2].phase, ACTIVITY_API_PHASE_EXIT);
  EXPECT_EQ(g_consumed[3].id, outer.id);
  EXPECT_EQ(roctracer::hook::CurrentCallId(), 0u);
}

// Calls in progress are per thread: a call another thread makes meanwhile
// has no parent, and this thread's call is still the innermost afterwards.
TEST_F(HookTest, CallsOfAnotherThreadAreNotNestedInThisOne) {
  roctracer::SetApiConsumer(&Consumer);
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string, true));
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info, true));
  g_other_thread = true;
  const char* text;
  hsa_status_string(HSA_STATUS_SUCCESS, &text);
  ASSERT_EQ(g_consumed.size(), 4u);
  const Call& mine = g_consumed[0];
  const Call& theirs = g_consumed[1];
  EXPECT_EQ(mine.op, HSA_API_ID_hsa_status_string);
  EXPECT_EQ(theirs.op, HSA_API_ID_hsa_system_get_info);
  EXPECT_EQ(theirs.parent, 0u);
  EXPECT_NE(theirs.id, mine.id);
  EXPECT_EQ(g_consumed[3].id, mine.id);
  EXPECT_EQ(g_consumed[3].phase, ACTIVITY_API_PHASE_EXIT);
  EXPECT_EQ(g_consumed[3].parent, 0u);
  EXPECT_EQ(roctracer::hook::CurrentCallId(), 0u);
}

TEST_F(HookTest, BothFrontEndsSeeTheSameCorrelationId) {
  roctracer::SetApiConsumer(&Consumer);
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string, true));
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                         HSA_API_ID_hsa_status_string,
                                         &Callback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  const char* text;
  hsa_status_string(HSA_STATUS_SUCCESS, &text);
  ASSERT_EQ(g_callbacks.size(), 2u);
  ASSERT_EQ(g_consumed.size(), 2u);
  EXPECT_EQ(g_callbacks[0].id, g_consumed[0].id);
  EXPECT_EQ(g_callbacks[1].id, g_consumed[1].id);
  // Both see the same phase_data slot.
  EXPECT_EQ(g_consumed[0].phase_data, g_consumed[1].phase_data);
}

TEST_F(HookTest, ConsumerInterestAloneActivatesTheStubAndIgnoresStop) {
  const auto& active = roctracer::hook::g_hsa_api_active;
  EXPECT_EQ(active[HSA_API_ID_hsa_status_string].load(), 0);
  roctracer::SetApiConsumer(&Consumer);
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string, true));
  EXPECT_EQ(active[HSA_API_ID_hsa_status_string].load(),
            roctracer::activity::kActiveConsumer);
  roctracer_stop();
  EXPECT_EQ(active[HSA_API_ID_hsa_status_string].load(),
            roctracer::activity::kActiveConsumer);
  const char* text;
  hsa_status_string(HSA_STATUS_SUCCESS, &text);
  EXPECT_EQ(g_consumed.size(), 2u);
  roctracer_start();
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_status_string, false));
  EXPECT_EQ(active[HSA_API_ID_hsa_status_string].load(), 0);
  EXPECT_FALSE(roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_HSA_API,
                                              HSA_API_ID_NUMBER, true));
  EXPECT_FALSE(roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_NUMBER, 0, true));
}

TEST_F(HookTest, ACallbackCallingTheTracedApiDoesNotRecurse) {
  int marker = 1;
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                         HSA_API_ID_hsa_status_string,
                                         &Callback, &marker),
            ROCTRACER_STATUS_SUCCESS);
  const char* text;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_SUCCESS, &text), HSA_STATUS_SUCCESS);
  // The outer call plus one untraced call from each of its two callbacks.
  EXPECT_EQ(g_impl_calls, 3);
  EXPECT_EQ(g_callbacks.size(), 2u);
}

TEST_F(HookTest, StringArgumentsAreCopiesOwnedByTheTracer) {
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, &Callback,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  std::string name = "a_kernel_name";
  hsa_executable_symbol_t symbol{0};
  hsa_agent_t agent{1};
  // No such executable: the runtime's answer, whatever the tracer does.
  EXPECT_EQ(g_table->core_->hsa_executable_get_symbol_by_name_fn(
                hsa_executable_t{2}, name.c_str(), &agent, &symbol),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  // The runtime got the caller's string, the callback a copy.
  EXPECT_EQ(g_runtime_got, name.c_str());
  EXPECT_EQ(g_seen_string, name);
  EXPECT_NE(g_seen_pointer, name.c_str());
  // Repeated calls reuse the thread's arena: it does not grow.
  roctracer::StringArena* arena = roctracer::StringArena::ForThisThread();
  ASSERT_NE(arena, nullptr);
  const size_t capacity = arena->Capacity();
  for (int i = 0; i < 1000; ++i) {
    g_table->core_->hsa_executable_get_symbol_by_name_fn(
        hsa_executable_t{2}, name.c_str(), &agent, &symbol);
  }
  EXPECT_EQ(arena->Capacity(), capacity);
  EXPECT_EQ(g_seen_string, name);
  // A string larger than any kept chunk is copied, then given back.
  std::string big(3u << 20, 'x');
  g_table->core_->hsa_executable_get_symbol_by_name_fn(
      hsa_executable_t{2}, big.c_str(), &agent, &symbol);
  EXPECT_EQ(g_seen_string.size(), big.size());
  EXPECT_EQ(arena->Capacity(), capacity);
}

// What a consumer that alone wants hsa_executable_get_symbol_by_name saw at
// ENTER.
const char* g_consumer_pointer = nullptr;
std::string g_consumer_string;
uint64_t g_consumer_phase_data = 1;
void StringConsumer(const roctracer::ApiCallInfo& info) noexcept {
  if (info.domain != ACTIVITY_DOMAIN_HSA_API ||
      info.op != HSA_API_ID_hsa_executable_get_symbol_by_name ||
      info.phase != ACTIVITY_API_PHASE_ENTER) {
    return;
  }
  const auto* d = static_cast<const hsa_api_data_t*>(info.api_data);
  g_consumer_pointer = d->args.hsa_executable_get_symbol_by_name.symbol_name;
  g_consumer_string = g_consumer_pointer;
  g_consumer_phase_data = *d->phase_data;
}

// Leaves non-zero bytes where the next call's stub keeps its frame.
[[gnu::noinline]] void DirtyTheStack() {
  volatile unsigned char junk[16384];
  for (size_t i = 0; i < sizeof(junk); ++i) junk[i] = 0xA5;
}

// A call only the consumer wants takes the hook's consumer path (no
// callback or pool to look up); its string arguments are still the
// tracer's copies, and its phase_data slot starts zero although the stub
// does not zero its frame.
TEST_F(HookTest, AConsumerAloneSeesStringCopiesAndAZeroPhaseDataSlot) {
  roctracer::SetApiConsumer(&StringConsumer);
  ASSERT_TRUE(roctracer::SetConsumerInterest(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_executable_get_symbol_by_name,
      true));
  EXPECT_EQ(roctracer::hook::g_hsa_api_active
                [HSA_API_ID_hsa_executable_get_symbol_by_name]
                    .load(),
            roctracer::activity::kActiveConsumer);
  std::string name = "a_kernel_name";
  hsa_executable_symbol_t symbol{0};
  hsa_agent_t agent{1};
  for (int i = 0; i < 3; ++i) {
    g_consumer_pointer = nullptr;
    g_consumer_phase_data = 1;
    DirtyTheStack();
    EXPECT_EQ(g_table->core_->hsa_executable_get_symbol_by_name_fn(
                  hsa_executable_t{2}, name.c_str(), &agent, &symbol),
              HSA_STATUS_ERROR_INVALID_EXECUTABLE);
    EXPECT_EQ(g_runtime_got, name.c_str());
    ASSERT_NE(g_consumer_pointer, nullptr);
    EXPECT_NE(g_consumer_pointer, name.c_str());
    EXPECT_EQ(g_consumer_string, name);
    EXPECT_EQ(g_consumer_phase_data, 0u);
  }
  EXPECT_EQ(roctracer::hook::CurrentCallId(), 0u);
}

// A table as a runtime of another version might hand over: only
// hsa_system_get_info is filled (never called: OnLoad only wraps it).
hsa_status_t UncalledSystemGetInfo(hsa_system_info_t, void*) {
  return HSA_STATUS_ERROR;
}
void* OnlySystemGetInfo(const char* name, void*) {
  return std::strcmp(name, "hsa_system_get_info") == 0
             ? reinterpret_cast<void*>(&UncalledSystemGetInfo)
             : nullptr;
}

// A newer runtime of the same major hands over bigger tables (sizes in
// minor_id) of later steps: accepted. Another major has another layout:
// refused, nothing touched.
TEST(OnLoadTest, AcceptsNewerMinorsAndStepsRefusesAnotherMajor) {
  HsaApiTableContainer tables;
  roctracer::hsa_api::FillHsaApiTable(&tables, &OnlySystemGetInfo, nullptr);
  for (ApiTableVersion* v :
       {&tables.root.version, &tables.core.version, &tables.amd_ext.version,
        &tables.image_ext.version, &tables.finalizer_ext.version}) {
    v->minor_id += 64;
    v->step_id += 3;
  }
  auto* init = tables.core.hsa_system_get_info_fn;
  ASSERT_NE(nullptr, init);
  ASSERT_TRUE(OnLoad(&tables.root, 0, 0, nullptr));
  EXPECT_NE(init, tables.core.hsa_system_get_info_fn);
  OnUnload();
  EXPECT_EQ(init, tables.core.hsa_system_get_info_fn);

  tables.core.version.major_id += 1;
  EXPECT_FALSE(OnLoad(&tables.root, 0, 0, nullptr));
  EXPECT_EQ(init, tables.core.hsa_system_get_info_fn);
}

TEST(StringArenaTest, NestedCopiesStayValidUntilTheirRelease) {
  roctracer::StringArena* arena = roctracer::StringArena::ForThisThread();
  ASSERT_NE(arena, nullptr);
  const uint64_t outer = arena->Mark();
  const char* a = arena->Copy("outer");
  const uint64_t inner = arena->Mark();
  std::vector<const char*> copies;
  std::string long_text(10000, 'y');
  for (int i = 0; i < 20; ++i) copies.push_back(arena->Copy(long_text.c_str()));
  EXPECT_STREQ(a, "outer");
  for (const char* c : copies) EXPECT_EQ(long_text, c);
  arena->Release(inner);
  EXPECT_STREQ(a, "outer");
  const char* b = arena->Copy("again");
  EXPECT_STREQ(b, "again");
  EXPECT_STREQ(a, "outer");
  arena->Release(outer);
  EXPECT_EQ(arena->Copy(nullptr), nullptr);
}

TEST(OpNamesTest, RoundTripOverEveryId) {
  for (uint32_t domain : {ACTIVITY_DOMAIN_HSA_API, ACTIVITY_DOMAIN_HIP_API}) {
    const uint32_t count = domain == ACTIVITY_DOMAIN_HSA_API
                               ? uint32_t{HSA_API_ID_NUMBER}
                               : uint32_t{HIP_API_ID_NUMBER};
    uint32_t named = 0;
    for (uint32_t op = 0; op < count; ++op) {
      const char* name = roctracer_op_string(domain, op, 0);
      if (name == nullptr) continue;  // reserved / HIP_API_ID_NONE
      ++named;
      uint32_t back = ~0u, kind = ~0u;
      ASSERT_EQ(roctracer_op_code(domain, name, &back, &kind),
                ROCTRACER_STATUS_SUCCESS)
          << name;
      EXPECT_EQ(back, op) << name;
      EXPECT_EQ(kind, 0u);
    }
    EXPECT_GT(named, domain == ACTIVITY_DOMAIN_HSA_API ? 191u : 380u);
    EXPECT_EQ(roctracer_op_string(domain, count, 0), nullptr);
  }
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init, 0),
      "hsa_init");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMalloc, 0),
      "hipMalloc");
  uint32_t op;
  EXPECT_NE(
      roctracer_op_code(ACTIVITY_DOMAIN_HIP_API, "hsa_init", &op, nullptr),
      ROCTRACER_STATUS_SUCCESS);
}

void RoctxConsumer(const roctracer::ApiCallInfo& info) noexcept {
  const auto* d = static_cast<const roctx_api_data_t*>(info.api_data);
  g_consumed.push_back({info.domain, info.op, info.phase, info.correlation_id,
                        info.parent_correlation_id, 0});
  g_seen_string = d->args.message != nullptr ? d->args.message : "";
}

TEST(RoctxConsumerTest, AnnotationsReachTheConsumer) {
  static roctracer::RoctxLink link{
      roctracer::kRoctxLinkVersion, ROCTX_API_ID_NUMBER, {}, {}, {}, {}};
  roctracer::AttachRoctx(&link);
  g_consumed.clear();
  roctracer::SetApiConsumer(&RoctxConsumer);
  ASSERT_TRUE(roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_ROCTX,
                                             ROCTX_API_ID_roctxMarkA, true));
  // Non-zero is what libroctx tests; the consumer alone wants the op.
  EXPECT_EQ(link.active[ROCTX_API_ID_roctxMarkA].load(),
            roctracer::activity::kActiveConsumer);
  link.report.load()(ROCTX_API_ID_roctxMarkA, "hello", 0);
  ASSERT_EQ(g_consumed.size(), 2u);
  EXPECT_EQ(g_consumed[0].phase, ACTIVITY_API_PHASE_ENTER);
  EXPECT_EQ(g_consumed[1].phase, ACTIVITY_API_PHASE_EXIT);
  EXPECT_EQ(g_consumed[0].id, g_consumed[1].id);
  EXPECT_NE(g_consumed[0].id, 0u);
  EXPECT_EQ(g_seen_string, "hello");
  roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxMarkA,
                                 false);
  EXPECT_EQ(link.active[ROCTX_API_ID_roctxMarkA].load(), 0);
  roctracer::SetApiConsumer(nullptr);
  roctracer::DetachRoctx(&link);
}

// The hook asks HasStringArgs before it collects an op's string arguments
// (StringArgs): for every op of every domain (and past the last), the two
// must agree, or a call's strings would reach a callback uncopied.
TEST(StringArgTables, HasStringArgsTellsWhetherStringArgsFindsAny) {
  uint32_t with_strings = 0;
  auto check = [&](auto d) {
    using D = decltype(d);
    roctracer::hook::DataStorage<typename D::Data> storage;
    std::memset(static_cast<void*>(&storage.value), 0, sizeof(storage.value));
    const char** slots[D::kMaxStringArgs];
    for (uint32_t op = 0; op < D::kCount + 2; ++op) {
      const bool has = D::HasStringArgs(op);
      EXPECT_EQ(has, D::StringArgs(op, &storage.value, slots) != 0)
          << "domain " << D::kValue << ", op " << op;
      with_strings += has ? 1 : 0;
    }
  };
#define ROCTRACER_CHECK_DOMAIN(d, value) \
  roctracer::hook::VisitApiDomain(value, check, [] {});
  ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_CHECK_DOMAIN)
#undef ROCTRACER_CHECK_DOMAIN
  EXPECT_GT(with_strings, 0u);
}

}  // namespace
