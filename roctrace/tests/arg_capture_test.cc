// ArgCapture alone: calls' arguments copied on their own threads, taken by
// thread and correlation ID on another, printed by the generated printers
// without following pointers; entries whose records never come are passed
// over, queues span chunks, and the chunks a batch without events passed
// go after the batches before it (BatchArenas).
#include "roctrace/tool/arg_capture.h"

#include <gtest/gtest.h>
#include <roctracer.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hip_api_data.h"
#include "hip_api_id.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"

namespace roctrace {
namespace {

uint32_t Tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

std::vector<std::string> Print(const ApiArgs& args) {
  std::vector<std::string> rows;
  args.each(
      [](void* user, const ApiArg& a) {
        EXPECT_EQ(a.name_size, std::strlen(a.name));
        EXPECT_EQ(a.type_size, std::strlen(a.type));
        static_cast<std::vector<std::string>*>(user)->push_back(
            std::to_string(a.position) + "|" + std::string(a.type) + "|" +
            a.mangled_type + "|" + a.name + "|" +
            std::string(a.value, a.value_size));
      },
      &rows);
  return rows;
}

hip_api_data_t Memcpy(uint64_t id, size_t bytes) {
  hip_api_data_t d{};
  d.correlation_id = id;
  d.args.hipMemcpy.dst = reinterpret_cast<void*>(0x1000);
  d.args.hipMemcpy.src = nullptr;
  d.args.hipMemcpy.sizeBytes = bytes;
  d.args.hipMemcpy.kind = hipMemcpyDeviceToHost;
  return d;
}

TEST(ArgCapture, TakenOnAnotherThreadAndPrinted) {
  uint32_t tid = 0;
  std::thread caller([&tid] {
    tid = Tid();
    for (uint64_t id = 1; id <= 3; ++id) {
      hip_api_data_t d = Memcpy(id, 100 * id);
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
    }
    hsa_api_data_t h{};
    h.correlation_id = 4;
    h.args.hsa_system_get_info.attribute = HSA_SYSTEM_INFO_VERSION_MAJOR;
    h.args.hsa_system_get_info.value = reinterpret_cast<void*>(0xabc0);
    ArgCapture::OnExit(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                       &h, nullptr);
  });
  caller.join();
  ArgCapture capture;
  ArgArena arena;
  for (uint64_t id = 1; id <= 3; ++id) {
    const ApiArgs* args = capture.Take(tid, id, &arena);
    ASSERT_NE(args, nullptr) << id;
    EXPECT_EQ(
        Print(*args),
        (std::vector<std::string>{
            "0|void*|Pv|dst|0x1000", "1|void const*|PKv|src|NULL",
            "2|unsigned long|m|sizeBytes|" + std::to_string(100 * id),
            "3|hipMemcpyKind|13hipMemcpyKind|kind|hipMemcpyDeviceToHost"}));
  }
  const ApiArgs* hsa = capture.Take(tid, 4, &arena);
  ASSERT_NE(hsa, nullptr);
  EXPECT_EQ(Print(*hsa),
            (std::vector<std::string>{
                "0|hsa_system_info_t|17hsa_system_info_t|attribute|"
                "HSA_SYSTEM_INFO_VERSION_MAJOR",
                "1|void*|Pv|value|0xabc0"}));
  // Taken once; another thread's ID finds nothing.
  EXPECT_EQ(capture.Take(tid, 4, &arena), nullptr);
  EXPECT_EQ(capture.Take(Tid(), 1, &arena), nullptr);
}

TEST(ArgCapture, EntriesWithoutRecordsArePassedOver) {
  const uint64_t lost_before = ArgCapture().lost();
  uint32_t tid = 0;
  std::thread caller([&tid] {
    tid = Tid();
    for (uint64_t id = 10; id <= 12; ++id) {
      hip_api_data_t d = Memcpy(id, id);
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
    }
  });
  caller.join();
  ArgCapture capture;
  ArgArena arena;
  // A record whose call has no entry leaves the queue as it is.
  EXPECT_EQ(capture.Take(tid, 99, &arena), nullptr);
  const ApiArgs* args = capture.Take(tid, 11, &arena);
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(Print(*args)[2], "2|unsigned long|m|sizeBytes|11");
  EXPECT_EQ(capture.lost(), lost_before + 1);  // 10's record never came
  EXPECT_EQ(capture.Take(tid, 10, &arena), nullptr);
  ASSERT_NE(capture.Take(tid, 12, &arena), nullptr);
}

TEST(ArgCapture, QueuesSpanChunksAndArenasHoldEveryCall) {
  constexpr uint64_t kCalls = 20000;  // ~1 MiB: 30 chunks
  const uint32_t tid = Tid();
  ArgCapture capture;
  ArgArena arena;
  std::vector<const ApiArgs*> taken;
  for (uint64_t round = 0; round < 2; ++round) {
    for (uint64_t i = 1; i <= kCalls; ++i) {
      hip_api_data_t d = Memcpy(round * kCalls + i, i);
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
    }
    arena.Clear();
    taken.clear();
    for (uint64_t i = 1; i <= kCalls; ++i) {
      const ApiArgs* args = capture.Take(tid, round * kCalls + i, &arena);
      ASSERT_NE(args, nullptr) << i;
      taken.push_back(args);
    }
    // Every call's copy stays valid until the arena is cleared.
    for (uint64_t i = 1; i <= kCalls; i += 997) {
      EXPECT_EQ(Print(*taken[i - 1])[2],
                "2|unsigned long|m|sizeBytes|" + std::to_string(i));
    }
  }
}

// As the tool runs: the calling thread records while the consumer takes,
// each call once its record is out (here: a counter published after the
// copy, as the pool publishes the record).
TEST(ArgCapture, TakenWhileTheCallerGoesOn) {
  constexpr uint64_t kCalls = 50000;
  std::atomic<uint32_t> tid{0};
  std::atomic<uint64_t> published{0};
  std::thread caller([&] {
    tid.store(Tid(), std::memory_order_relaxed);
    for (uint64_t i = 1; i <= kCalls; ++i) {
      hip_api_data_t d = Memcpy(1000000 + i, i);
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
      published.store(i, std::memory_order_release);
    }
  });
  ArgCapture capture;
  ArgArena arena;
  for (uint64_t i = 1; i <= kCalls; ++i) {
    while (published.load(std::memory_order_acquire) < i) {
      std::this_thread::yield();
    }
    if (i % 1000 == 0) arena.Clear();
    const ApiArgs* args =
        capture.Take(tid.load(std::memory_order_relaxed), 1000000 + i, &arena);
    ASSERT_NE(args, nullptr) << i;
    ASSERT_EQ(Print(*args)[2],
              "2|unsigned long|m|sizeBytes|" + std::to_string(i));
  }
  caller.join();
}

// As the tool fills batches and hands them to its writers: a batch whose
// events were all filtered out (an API filter, a closed collection period)
// still took its calls' arguments, moving the queue past the chunk a
// batch already handed over points into. That chunk is freed only after
// the earlier batch is written (under ASan, a use after free otherwise).
TEST(ArgCapture, ChunksPassedByAnEmptyBatchOutliveTheBatchesBefore) {
  constexpr uint64_t kCalls = 2000;  // several chunks
  uint32_t tid = 0;
  std::thread caller([&tid] {
    tid = Tid();
    for (uint64_t id = 1; id <= kCalls; ++id) {
      hip_api_data_t d = Memcpy(id, 100 + id);
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
    }
  });
  caller.join();
  ArgCapture capture;
  BatchArenas arenas;
  std::deque<EventBatch> writer;  // a writer's queue, released in order

  // Batch 1: the first call, written later.
  auto batch = std::make_shared<EventList>();
  const OpName memcpy_name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API_EXT",
                           0};
  ApiEvent e{};
  e.op = &memcpy_name;
  e.args = capture.Take(tid, 1, arenas.Next());
  ASSERT_NE(e.args, nullptr);
  batch->Append(e, 0);
  EventBatch sealed = arenas.Seal(batch);
  ASSERT_NE(sealed, nullptr);
  writer.push_back(std::move(sealed));
  batch = nullptr;

  // Batch 2: every other call taken, none of its events kept.
  ArgArena* second = arenas.Next();
  for (uint64_t id = 2; id <= kCalls; ++id) {
    ASSERT_NE(capture.Take(tid, id, second), nullptr) << id;
  }
  ASSERT_TRUE(second->holds_chunks());
  sealed = arenas.Seal(std::make_shared<EventList>());
  EXPECT_NE(sealed, nullptr) << "the chunks must wait for batch 1";
  if (sealed != nullptr) {
    EXPECT_TRUE(sealed->empty());
    writer.push_back(std::move(sealed));
  }

  // Batch 3: nothing taken, nothing kept: nothing to hand over, and its
  // arena serves the next batch.
  ArgArena* third = arenas.Next();
  EXPECT_FALSE(third->holds_chunks());
  EXPECT_EQ(arenas.Seal(std::make_shared<EventList>()), nullptr);
  EXPECT_EQ(arenas.Next(), third);

  // The writer writes batch 1, then releases what it was handed, in order.
  ASSERT_EQ(writer.front()->size(), 1u);
  EXPECT_EQ(Print(*(*writer.front())[0].args)[2],
            "2|unsigned long|m|sizeBytes|101");
  writer.clear();
}

// Adopt runs in the pool's delivery callback: it must not throw.
static_assert(noexcept(std::declval<ArgArena&>().Adopt(nullptr)),
              "ArgArena::Adopt does not throw");

// A forked child's or a stopped tool's calls pile nothing up.
TEST(ArgCapture, NothingRecordedWhileOff) {
  ArgCapture capture;
  ArgArena arena;
  hip_api_data_t d = Memcpy(500, 1);
  ArgCapture::SetRecording(false);
  ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                     nullptr);
  EXPECT_EQ(capture.Take(Tid(), 500, &arena), nullptr);
  ArgCapture::SetRecording(true);
  d.correlation_id = 501;
  ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                     nullptr);
  EXPECT_NE(capture.Take(Tid(), 501, &arena), nullptr);
}

// The rocpd writer's path: `values` hands over what `each` does, the type
// as the header spells it, and `spell` turns each value into `each`'s.
std::vector<std::string> PrintValues(const ApiArgs& args,
                                     std::vector<std::string>* header_types) {
  struct Seen {
    const ApiArgs* args;
    std::vector<std::string>* rows;
    std::vector<std::string>* header_types;
  };
  std::vector<std::string> rows;
  Seen seen{&args, &rows, header_types};
  args.printers->values(
      args,
      [](uint32_t position, const char* header_type, const char* name,
         const char* value, size_t size, void* user) {
        auto* s = static_cast<Seen*>(user);
        s->header_types->push_back(header_type);
        const ApiArg a = s->args->printers->spell(
            *s->args, position, header_type, name, value, size);
        EXPECT_EQ(a.name_size, std::strlen(a.name));
        EXPECT_EQ(a.type_size, std::strlen(a.type));
        s->rows->push_back(std::to_string(a.position) + "|" +
                           std::string(a.type) + "|" + a.mangled_type + "|" +
                           a.name + "|" + std::string(a.value, a.value_size));
      },
      &seen);
  return rows;
}

TEST(ArgCapture, ValuesSpelledAreWhatEachHandsOver) {
  ArgArena arena;
  const hip_api_data_t d = Memcpy(1, 4096);
  const ApiArgs* hip = arena.Add(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy,
                                 &d.args.hipMemcpy, sizeof(d.args.hipMemcpy));
  hsa_api_data_t h{};
  h.args.hsa_system_get_info.attribute = HSA_SYSTEM_INFO_VERSION_MAJOR;
  h.args.hsa_system_get_info.value = reinterpret_cast<void*>(0xabc0);
  const ApiArgs* hsa = arena.Add(
      ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
      &h.args.hsa_system_get_info, sizeof(h.args.hsa_system_get_info));
  ASSERT_NE(hip, nullptr);
  ASSERT_NE(hsa, nullptr);
  std::vector<std::string> header_types;
  EXPECT_EQ(PrintValues(*hip, &header_types), Print(*hip));
  // The header's own spellings (the generator's), one per parameter.
  ASSERT_EQ(header_types.size(), 4u);
  EXPECT_EQ(header_types[3], "hipMemcpyKind");
  header_types.clear();
  EXPECT_EQ(PrintValues(*hsa, &header_types), Print(*hsa));
  EXPECT_EQ(header_types.size(), 2u);
  header_types.clear();
  EXPECT_TRUE(PrintValues(*ArgCapture::NoArguments(), &header_types).empty());
}

TEST(ArgCapture, OpsWithoutParametersRecordNothing) {
  hsa_api_data_t h{};
  h.correlation_id = 77;
  ArgCapture::OnExit(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init, &h, nullptr);
  ArgCapture capture;
  ArgArena arena;
  EXPECT_EQ(capture.Take(Tid(), 77, &arena), nullptr);
  EXPECT_EQ(ArgsSizeOf(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init), 0u);
  EXPECT_EQ(ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy),
            sizeof(hip_api_data_t::args.hipMemcpy));
  // By op: its (empty) list, not a look in the queue; an op with
  // parameters finds its call's.
  EXPECT_EQ(capture.Take(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init, Tid(),
                         77, &arena),
            ArgCapture::NoArguments());
  hip_api_data_t d = Memcpy(78, 5);
  ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                     nullptr);
  const ApiArgs* args = capture.Take(ACTIVITY_DOMAIN_HIP_API,
                                     HIP_API_ID_hipMemcpy, Tid(), 78, &arena);
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(Print(*args)[2], "2|unsigned long|m|sizeBytes|5");
}

// A HIP call returning neither a status nor void carries its result after
// its arguments, zero-extended past the result's own bytes (the stub writes
// only its member of the retval union), for JSON's retval; a status call's
// entry is its arguments alone, and both are printed as before.
TEST(ArgCapture, NonStatusResultsFollowTheirArguments) {
  ArgCapture::SetRecording(true);
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy),
            ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy));
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString),
            kRetvalFollows | 16u);
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init), 0u);
  static const char kText[] = "text";
  hip_api_data_t text{};
  text.correlation_id = 801;
  text.args.hipGetErrorString.hipError = hipErrorInvalidValue;
  text.const_char_ptr_retval = kText;
  hip_api_data_t device{};
  device.correlation_id = 802;
  std::memset(&device.hipChannelFormatDesc_retval, 0xab,
              sizeof(device.hipChannelFormatDesc_retval));
  device.int_retval = -1;
  hip_api_data_t copy = Memcpy(803, 7);
  ArgCapture::OnExitOf(ACTIVITY_DOMAIN_HIP_API)(
      ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString, &text, nullptr);
  ArgCapture::Record(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetStreamDeviceId,
                     &device);
  ArgCapture::Record(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &copy);
  ArgCapture capture;
  ArgArena arena;
  const ApiArgs* a =
      capture.Take(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString, Tid(),
                   801, &arena);
  const ApiArgs* b =
      capture.Take(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetStreamDeviceId,
                   Tid(), 802, &arena);
  const ApiArgs* c = capture.Take(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy,
                                  Tid(), 803, &arena);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(RetvalOf(*a), reinterpret_cast<uintptr_t>(kText));
  EXPECT_EQ(RetvalOf(*b), 0xffffffffu);
  EXPECT_EQ(c->size, sizeof(hip_api_data_t::args.hipMemcpy));
  EXPECT_EQ(Print(*a),
            std::vector<std::string>{"0|hipError_t|10hipError_t|hipError|"
                                     "hipErrorInvalidValue"});
  EXPECT_EQ(Print(*c)[2], "2|unsigned long|m|sizeBytes|7");
}

// Without the JSON (SetRetvals(false)) no result is recorded: a non-status
// call's entry is its arguments alone, as a status call's is.
TEST(ArgCapture, ResultsOnlyWhenAsked) {
  ArgCapture::SetRetvals(false);
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString),
            ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString));
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy),
            ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy));
  EXPECT_EQ(
      EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetStreamDeviceId),
      ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetStreamDeviceId));
  ArgCapture::SetRetvals(true);
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString),
            kRetvalFollows | 16u);
}

// The size tables are made once, at the first SetRecording(true): a later
// SetRetvals changes EntrySizeOf but not what is recorded, and
// RecordedEntrySizeOf (what the converter marks OpName::retval_in_args by)
// follows the entries, not EntrySizeOf.
TEST(ArgCapture, RecordedSizeIsTheTablesAfterALateSetRetvals) {
  ArgCapture::SetRetvals(true);
  ArgCapture::SetRecording(true);
  ArgCapture::SetRetvals(false);
  EXPECT_EQ(EntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString),
            ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString));
  EXPECT_EQ(RecordedEntrySizeOf(ACTIVITY_DOMAIN_HIP_API,
                                HIP_API_ID_hipGetErrorString),
            kRetvalFollows | 16u);
  EXPECT_EQ(RecordedEntrySizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy),
            ArgsSizeOf(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy));
  static const char kText[] = "late";
  hip_api_data_t text{};
  text.correlation_id = 901;
  text.args.hipGetErrorString.hipError = hipErrorInvalidValue;
  text.const_char_ptr_retval = kText;
  ArgCapture::OnExitOf(ACTIVITY_DOMAIN_HIP_API)(
      ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString, &text, nullptr);
  ArgCapture::SetRetvals(true);
  ArgCapture capture;
  ArgArena arena;
  const ApiArgs* a =
      capture.Take(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString, Tid(),
                   901, &arena);
  ASSERT_NE(a, nullptr);
  // The entry carries the result, as RecordedEntrySizeOf says.
  EXPECT_EQ(a->size, RecordedEntrySizeOf(ACTIVITY_DOMAIN_HIP_API,
                                         HIP_API_ID_hipGetErrorString) &
                         ~kRetvalFollows);
  EXPECT_EQ(RetvalOf(*a), reinterpret_cast<uintptr_t>(kText));
}

// A call's stream is read from its copy where the op has a stream
// parameter, and a call without one has none.
TEST(ArgCapture, StreamOfACallWithAStreamParameterOnly) {
  const uint32_t tid = Tid();
  hip_api_data_t with{};
  with.correlation_id = 601;
  with.args.hipMemcpyAsync.sizeBytes = 8;
  with.args.hipMemcpyAsync.stream = reinterpret_cast<hipStream_t>(0xabc0);
  ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpyAsync, &with,
                     nullptr);
  hip_api_data_t without = Memcpy(602, 8);
  ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &without,
                     nullptr);
  ArgCapture capture;
  ArgArena arena;
  const ApiArgs* a = capture.Take(tid, 601, &arena);
  const ApiArgs* b = capture.Take(tid, 602, &arena);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  uint64_t handle = 0;
  EXPECT_TRUE(StreamHandleOf(*a, &handle));
  EXPECT_EQ(handle, 0xabc0u);
  handle = 7;
  EXPECT_FALSE(StreamHandleOf(*b, &handle));
  EXPECT_EQ(handle, 7u);
}

}  // namespace
}  // namespace roctrace
