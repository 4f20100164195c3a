// HSA_TOOLS_LIB under softhsa: tools are loaded at hsa_init in
// HSA_AMD_TOOL_PRIORITY order, OnLoad gets the runtime's table, every
// exported function dispatches through it, OnUnload runs at hsa_shut_down;
// the table's queue-intercept API works as ROCR's.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hsa/hsa_api_trace.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"
#include "tests/softhsa/test_tool.h"

namespace {

constexpr char kToolA[] = "tests/softhsa/libtest_tool_a.so";      // priority 20
constexpr char kToolB[] = "tests/softhsa/libtest_tool_b.so";      // priority 10
constexpr char kFails[] = "tests/softhsa/libtest_tool_fails.so";  // 5

ToolState* State(const char* path, void** handle) {
  *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (*handle == nullptr) return nullptr;
  auto fn = reinterpret_cast<ToolState* (*)()>(dlsym(*handle, "tool_state"));
  return fn ? fn() : nullptr;
}

// A sub-table of the headers built against, as ROCR hands it over: its size
// in minor_id and a function in every slot, the ones softhsa does not
// implement (and those a newer release added) included.
template <typename T>
void ExpectFilled(const T* table, const char* name) {
  ASSERT_NE(table, nullptr) << name;
  EXPECT_EQ(table->version.minor_id, sizeof(T)) << name;
  constexpr size_t kSlots =
      (sizeof(T) - sizeof(ApiTableVersion)) / sizeof(void*);
  for (size_t i = 0; i < kSlots; ++i) {
    void* fn;
    std::memcpy(&fn,
                reinterpret_cast<const char*>(table) + sizeof(ApiTableVersion) +
                    i * sizeof(void*),
                sizeof(fn));
    EXPECT_NE(fn, nullptr) << name << " slot " << i;
  }
}

TEST(ToolTest, ToolsLoadInPriorityOrderAndSeeEveryCall) {
  setenv("HSA_TOOLS_LIB",
         (std::string(kToolA) + " " + kFails + "  " + kToolB +
          " tests/softhsa/no_such_tool.so")
             .c_str(),
         1);
  unsetenv("TOOL_TEST_UNLOADS");
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  void *ha, *hb, *hf;
  ToolState* a = State(kToolA, &ha);
  ToolState* b = State(kToolB, &hb);
  ToolState* f = State(kFails, &hf);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(a->loads, 1);
  EXPECT_EQ(b->loads, 1);
  EXPECT_EQ(f->loads, 1);

  // The table as ROCR hands it over: sizes in minor_id.
  ASSERT_NE(a->table, nullptr);
  EXPECT_EQ(a->table->version.major_id, HSA_API_TABLE_MAJOR_VERSION);
  EXPECT_EQ(a->table->version.minor_id, sizeof(HsaApiTable));
  EXPECT_EQ(a->table->core_->version.minor_id, sizeof(CoreApiTable));
  EXPECT_EQ(a->table->amd_ext_->version.minor_id, sizeof(AmdExtTable));
  EXPECT_EQ(a->table->image_ext_->version.minor_id, sizeof(ImageExtTable));
  EXPECT_EQ(a->table->finalizer_ext_->version.minor_id,
            sizeof(FinalizerExtTable));
  ExpectFilled(a->table->core_, "core");
  ExpectFilled(a->table->amd_ext_, "amd_ext");
  ExpectFilled(a->table->image_ext_, "image_ext");
  ExpectFilled(a->table->finalizer_ext_, "finalizer_ext");
  // The sub-tables of releases that have them (the headers define their
  // versions where HsaApiTable points to them).
#ifdef HSA_TOOLS_API_TABLE_MAJOR_VERSION
  // The event hooks are the tools': ROCR hands them over empty.
  ASSERT_NE(a->table->tools_, nullptr);
  EXPECT_EQ(a->table->tools_->version.minor_id, sizeof(ToolsApiTable));
  EXPECT_EQ(a->table->tools_->hsa_amd_tool_scratch_event_alloc_start_fn,
            nullptr);
  EXPECT_EQ(a->table->tools_->hsa_amd_tool_scratch_event_async_reclaim_end_fn,
            nullptr);
#endif
#ifdef HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION
  ExpectFilled(a->table->pc_sampling_ext_, "pc_sampling_ext");
#endif
  // A slot softhsa does not implement answers as an unsupported call.
  hsa_ext_image_format_t format{};
  uint32_t capability = 0;
  EXPECT_EQ(a->table->image_ext_->hsa_ext_image_get_capability_fn(
                hsa_test::Agents(HSA_DEVICE_TYPE_GPU).at(0),
                HSA_EXT_IMAGE_GEOMETRY_2D, &format, &capability),
            HSA_STATUS_ERROR);

  // Order: the tool that fails (5), then b (10), then a (20). The unloadable
  // name fails before any OnLoad runs.
  EXPECT_EQ(f->failed_count, 1u);
  EXPECT_EQ(b->failed_names, (std::vector<std::string>{
                                 "tests/softhsa/no_such_tool.so", kFails}));
  EXPECT_EQ(a->failed_count, 2u);
  EXPECT_EQ(reinterpret_cast<void*>(a->previous), dlsym(hb, "Wrapper"));
  EXPECT_NE(b->previous, nullptr);

  // The application's call reaches both wrappers through the exported symbol.
  auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
  ASSERT_FALSE(gpus.empty());
  EXPECT_GE(a->calls.load(), 1);
  EXPECT_EQ(a->calls.load(), b->calls.load());
  EXPECT_EQ(f->calls.load(), 0);

  // A second hsa_init loads nothing again.
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(a->loads, 1);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(a->unloads, 0);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(a->unloads, 1);
  EXPECT_EQ(b->unloads, 1);
  EXPECT_EQ(f->unloads, 0);  // failed tools are not unloaded
  EXPECT_STREQ(getenv("TOOL_TEST_UNLOADS"), "20,10,");  // reverse order
  unsetenv("HSA_TOOLS_LIB");
}

struct Seen {
  std::atomic<int> packets{0};
  std::atomic<uint64_t> user_index{UINT64_MAX};
  std::atomic<int> order{0};
  int first = 0, second = 0;
};

void First(const void* packets, uint64_t count, uint64_t user_index, void* data,
           hsa_amd_queue_intercept_packet_writer writer) {
  auto* s = static_cast<Seen*>(data);
  s->packets += static_cast<int>(count);
  s->user_index = user_index;
  s->first = ++s->order;
  writer(packets, count);
}

void Second(const void* packets, uint64_t count, uint64_t, void* data,
            hsa_amd_queue_intercept_packet_writer writer) {
  auto* s = static_cast<Seen*>(data);
  s->second = ++s->order;
  writer(packets, count);
}

// A process with tool a loaded and an intercept queue made through its
// table. The intercept API has no exported symbol: tools reach it through
// the table, as here.
class InterceptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("HSA_TOOLS_LIB", kToolA, 1);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    void* ha;
    ToolState* a = State(kToolA, &ha);
    ASSERT_NE(a, nullptr);
    amd_ = a->table->amd_ext_;
    gpus_ = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
    ASSERT_FALSE(gpus_.empty());
    ASSERT_EQ(
        amd_->hsa_amd_queue_intercept_create_fn(
            gpus_[0], 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q_),
        HSA_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (q_ != nullptr) hsa_queue_destroy(q_);
    EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
    unsetenv("HSA_TOOLS_LIB");
  }

  AmdExtTable* amd_ = nullptr;
  std::vector<hsa_agent_t> gpus_;
  hsa_queue_t* q_ = nullptr;
};

TEST_F(InterceptTest, InterceptQueueRunsPacketsThroughItsHandlers) {
  Seen seen;
  ASSERT_EQ(amd_->hsa_amd_queue_intercept_register_fn(q_, First, &seen),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(amd_->hsa_amd_queue_intercept_register_fn(q_, Second, &seen),
            HSA_STATUS_SUCCESS);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  hsa_barrier_and_packet_t b{};
  b.header = hsa_test::Header(HSA_PACKET_TYPE_BARRIER_AND);
  b.completion_signal = done;
  uint64_t index = hsa_test::Submit(q_, &b);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                      UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
            0);
  EXPECT_EQ(seen.packets.load(), 1);
  EXPECT_EQ(seen.user_index.load(), index);
  // ROCR's order: the last registered runs first, its writer leading to the
  // one registered before it.
  EXPECT_EQ(seen.second, 1);
  EXPECT_EQ(seen.first, 2);

  // Only intercept queues take handlers.
  hsa_queue_t* plain = nullptr;
  ASSERT_EQ(hsa_queue_create(gpus_[0], 64, HSA_QUEUE_TYPE_MULTI, nullptr,
                             nullptr, 0, 0, &plain),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(amd_->hsa_amd_queue_intercept_register_fn(plain, First, &seen),
            HSA_STATUS_ERROR_INVALID_QUEUE);
  hsa_queue_t* odd = nullptr;
  EXPECT_EQ(
      amd_->hsa_amd_queue_intercept_create_fn(
          gpus_[0], 65, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &odd),
      HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_queue_destroy(plain);
  hsa_signal_destroy(done);
}

}  // namespace

namespace {

struct Doubler {
  std::thread::id ringer;
  std::atomic<int> calls{0};
  std::atomic<int> off_thread{0};
};

// Writes a signal-less barrier before every packet: twice the packets reach
// the lower queue, which then fills.
void Double(const void* packets, uint64_t count, uint64_t, void* data,
            hsa_amd_queue_intercept_packet_writer writer) {
  auto* d = static_cast<Doubler*>(data);
  d->calls++;
  if (std::this_thread::get_id() != d->ringer) d->off_thread++;
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t pair[128] = {};
    hsa_barrier_and_packet_t b{};
    b.header = hsa_test::Header(HSA_PACKET_TYPE_BARRIER_AND, true);
    memcpy(pair, &b, 64);
    memcpy(pair + 64, static_cast<const uint8_t*>(packets) + i * 64, 64);
    writer(pair, 2);
  }
}

}  // namespace

// As in ROCR, packets are intercepted on the thread that rings the doorbell;
// what a full lower queue cannot take waits and is submitted as room appears
// (here: behind a barrier the application opens only after submitting more
// packets than the lower queue holds, so the doorbell never blocks).
TEST_F(InterceptTest,
       InterceptRunsOnTheRingingThreadAndOverflowsWithoutBlocking) {
  Doubler d;
  d.ringer = std::this_thread::get_id();
  ASSERT_EQ(amd_->hsa_amd_queue_intercept_register_fn(q_, Double, &d),
            HSA_STATUS_SUCCESS);
  hsa_signal_t gate, done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &gate), HSA_STATUS_SUCCESS);
  constexpr int kPackets = 60;
  ASSERT_EQ(hsa_signal_create(kPackets, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  hsa_barrier_and_packet_t wait{};
  wait.header = hsa_test::Header(HSA_PACKET_TYPE_BARRIER_AND);
  wait.dep_signal[0] = gate;
  hsa_test::Submit(q_, &wait);
  for (int i = 1; i < kPackets; ++i) {
    hsa_barrier_and_packet_t b{};
    b.header = hsa_test::Header(HSA_PACKET_TYPE_BARRIER_AND);
    b.completion_signal = done;
    hsa_test::Submit(q_, &b);
  }
  // 120 packets for a 64-slot lower queue, and nothing has run yet.
  EXPECT_EQ(hsa_signal_load_scacquire(done), kPackets);
  EXPECT_EQ(d.off_thread.load(), 0);
  const int before = d.calls.load();
  hsa_signal_store_screlease(gate, 0);
  hsa_barrier_and_packet_t last{};
  last.header = hsa_test::Header(HSA_PACKET_TYPE_BARRIER_AND);
  last.completion_signal = done;
  hsa_test::Submit(q_, &last);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                      UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
            0);
  EXPECT_EQ(d.calls.load(), kPackets + 1);
  // The packets left in the intercept queue were taken by the runtime once
  // the lower queue had room.
  EXPECT_GT(d.off_thread.load(), 0);
  EXPECT_LT(before, kPackets);
  hsa_signal_destroy(gate);
  hsa_signal_destroy(done);
}
