// roctrace's kernel observer on the GPU seam, driven as the interception
// drives it (OnEnqueue on submitting threads, completions later, in another
// order), and its registration through libroctracer64's private export.
#include "roctrace/tool/kernel_observer.h"

#include <gtest/gtest.h>
#include <hsa/hsa.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <thread>
#include <vector>

#include "runtime/private/observer_export.h"

// Out of memory on demand: while a thread's flag is set, its allocations
// through operator new throw std::bad_alloc (the observers run inside
// noexcept paths of the tracer and must not let it escape).
namespace {
thread_local bool t_fail_allocations = false;
}  // namespace

void* operator new(std::size_t size) {
  if (t_fail_allocations) throw std::bad_alloc();
  if (void* p = std::malloc(size != 0 ? size : 1)) return p;
  throw std::bad_alloc();
}
// GCC 12 at -O2 takes the replacement's own free() for a mismatch with the
// operator new above, which is exactly what it pairs with.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace roctrace {
namespace {

namespace gpu = roctracer::gpu;

gpu::EnqueueInfo Enqueue(gpu::OpKind kind) {
  gpu::EnqueueInfo info{};
  info.kind = kind;
  return info;
}

gpu::DispatchRecord Completed(uint64_t kernel_object, uint32_t k) {
  gpu::DispatchRecord r{};
  r.correlation_id = 500 + k;
  r.queue.device_id = 1;
  r.queue.queue_id = 9;
  r.kernel_object = kernel_object;
  r.kernel_name = "kern";
  r.grid[0] = 64 * k;
  r.grid[1] = 2;
  r.grid[2] = 3;
  r.workgroup[0] = static_cast<uint16_t>(k);
  r.workgroup[1] = 1;
  r.workgroup[2] = 1;
  r.group_segment_size = 128 * k;
  r.private_segment_size = 8 * k;
  r.begin_ns = 10;
  r.end_ns = 20;
  return r;
}

gpu::KernelSymbolEvent Symbol(bool load, uint64_t kernel_object, uint32_t lds) {
  gpu::KernelSymbolEvent e{};
  e.load = load;
  e.kernel_object = kernel_object;
  e.group_segment_size = lds;
  e.registers = {true, 24, 8, 32};
  return e;
}

TEST(KernelObserver, OnlyDispatchesAreWanted) {
  KernelObserver o;
  EXPECT_EQ(o.OnEnqueue(Enqueue(gpu::OpKind::kBarrier)), 0u);
  EXPECT_EQ(o.OnEnqueue(Enqueue(gpu::OpKind::kCopy)), 0u);
  EXPECT_EQ(o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch)), 1u);
}

TEST(KernelObserver, DispatchIdsAreUniqueAndIncreaseAsSubmitted) {
  KernelObserver o;
  constexpr int kThreads = 4, kEach = 10000;
  std::vector<std::vector<uint64_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        ids[t].push_back(o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch)));
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<uint64_t> all;
  for (const auto& mine : ids) {
    // Each thread's later submission has the larger ID.
    EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
    all.insert(all.end(), mine.begin(), mine.end());
  }
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i + 1);
}

TEST(KernelObserver, RowsCarryTheLaunchAndTheSymbolsLds) {
  KernelObserver o;
  o.OnKernelSymbol(Symbol(true, 0x1000, 1000));
  const uint64_t first = o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch));
  const uint64_t second = o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch));
  // Completions in another order than submissions; the second kernel object
  // is in no executable the observer saw.
  o.OnDispatch(Completed(0x2000, 2), second);
  o.OnDispatch(Completed(0x1000, 1), first);
  std::vector<DispatchRow> rows = o.Take();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].dispatch_id, 2u);
  EXPECT_FALSE(rows[0].launch.symbol_known);
  const DispatchRow& r = rows[1];
  EXPECT_EQ(r.dispatch_id, 1u);
  EXPECT_EQ(r.correlation_id, 501u);
  EXPECT_EQ(r.device_id, 1);
  EXPECT_EQ(r.queue_id, 9u);
  EXPECT_EQ(r.kernel_name, "kern");
  EXPECT_EQ(
      (std::vector<uint32_t>{r.launch.grid[0], r.launch.grid[1],
                             r.launch.grid[2], r.launch.workgroup[0],
                             r.launch.workgroup[1], r.launch.workgroup[2]}),
      (std::vector<uint32_t>{64, 2, 3, 1, 1, 1}));
  EXPECT_EQ(r.launch.group_segment_size, 128u);
  EXPECT_EQ(r.launch.private_segment_size, 8u);
  EXPECT_TRUE(r.launch.symbol_known);
  EXPECT_EQ(r.launch.symbol_group_segment_size, 1000u);
  EXPECT_TRUE(r.registers.known);
  EXPECT_EQ((std::vector<uint32_t>{r.registers.arch_vgpr,
                                   r.registers.accum_vgpr, r.registers.sgpr}),
            (std::vector<uint32_t>{24, 8, 32}));
  EXPECT_FALSE(rows[0].registers.known);
  EXPECT_EQ((std::vector<uint64_t>{r.begin_ns, r.end_ns}),
            (std::vector<uint64_t>{10, 20}));
  // Taken once; an unloaded symbol is forgotten.
  EXPECT_TRUE(o.Take().empty());
  o.OnKernelSymbol(Symbol(false, 0x1000, 1000));
  o.OnDispatch(Completed(0x1000, 3),
               o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch)));
  EXPECT_FALSE(o.Take()[0].launch.symbol_known);
  // A symbol whose descriptor could not be read: known, its registers not.
  gpu::KernelSymbolEvent unread = Symbol(true, 0x3000, 0);
  unread.registers = {};
  o.OnKernelSymbol(unread);
  o.OnDispatch(Completed(0x3000, 4),
               o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch)));
  const DispatchRow row = o.Take()[0];
  EXPECT_TRUE(row.launch.symbol_known);
  EXPECT_FALSE(row.registers.known);
}

// The stream of the call being "submitted" on this thread (what the seam's
// EnqueueInfo::stream answers from the thread's traced calls).
thread_local uint64_t t_stream = 0;
uint64_t CurrentStream() noexcept { return t_stream; }

gpu::EnqueueInfo OnStream(gpu::OpKind kind, uint64_t handle) {
  gpu::EnqueueInfo info = Enqueue(kind);
  info.stream = &CurrentStream;
  t_stream = handle;
  return info;
}

TEST(KernelObserver, StreamsAreNumberedByCreationThenFirstUse) {
  KernelObserver o;
  o.Watch(true, true);
  o.OnStreamCreated(0xa0);  // created first, used second
  o.OnStreamCreated(0xb0);
  const uint64_t on_b = o.OnEnqueue(OnStream(gpu::OpKind::kDispatch, 0xb0));
  const uint64_t on_null = o.OnEnqueue(OnStream(gpu::OpKind::kDispatch, 0));
  const uint64_t on_a = o.OnEnqueue(OnStream(gpu::OpKind::kDispatch, 0xa0));
  // Not created while the tool watched: numbered when first used.
  const uint64_t copy_c = o.OnEnqueue(OnStream(gpu::OpKind::kCopy, 0xc0));
  const uint64_t copy_a = o.OnEnqueue(OnStream(gpu::OpKind::kCopy, 0xa0));
  const uint64_t copy_null = o.OnEnqueue(OnStream(gpu::OpKind::kCopy, 0));
  for (uint64_t cookie : {on_b, on_null, on_a}) {
    o.OnDispatch(Completed(1, 1), cookie);
  }
  gpu::CopyRecord copy{};
  copy.correlation_id = 77;
  copy.device_id = -1;
  copy.bytes = 4096;
  copy.direction = 3;
  for (uint64_t cookie : {copy_c, copy_a, copy_null}) o.OnCopy(copy, cookie);
  std::vector<uint64_t> streams;
  for (const DispatchRow& r : o.Take()) {
    streams.push_back(r.stream_id);
    EXPECT_EQ(r.dispatch_id, streams.size());  // the ID survives beside it
  }
  EXPECT_EQ(streams, (std::vector<uint64_t>{2, 0, 1}));
  streams.clear();
  for (const CopyRow& r : o.TakeCopies()) {
    streams.push_back(r.stream_id);
    EXPECT_EQ((std::vector<uint64_t>{r.correlation_id, r.bytes, r.direction}),
              (std::vector<uint64_t>{77, 4096, 3}));
    EXPECT_EQ(r.device_id, -1);
  }
  EXPECT_EQ(streams, (std::vector<uint64_t>{3, 1, 0}));
}

TEST(KernelObserver, ThreadsMeetingStreamsAgreeOnTheirIds) {
  KernelObserver o;
  o.Watch(true, false);
  constexpr int kThreads = 4, kStreams = 50, kEach = 2000;
  // (cookie, stream handle) per submission, per thread.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> submitted(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        // Runs on one stream, then another: the cache and the lock.
        const uint64_t handle = 0x1000 * (1 + (i / 7 + 13 * t) % kStreams);
        submitted[t].emplace_back(
            o.OnEnqueue(OnStream(gpu::OpKind::kDispatch, handle)), handle);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::map<uint64_t, std::set<uint64_t>> ids_of_handle;
  std::set<uint64_t> ids;
  for (const auto& mine : submitted) {
    for (const auto& [cookie, handle] : mine) {
      o.OnDispatch(Completed(1, 1), cookie);
      const std::vector<DispatchRow> rows = o.Take();
      ASSERT_EQ(rows.size(), 1u);
      ids_of_handle[handle].insert(rows[0].stream_id);
      ids.insert(rows[0].stream_id);
    }
  }
  ASSERT_EQ(ids_of_handle.size(), size_t{kStreams});
  for (const auto& kv : ids_of_handle) EXPECT_EQ(kv.second.size(), 1u);
  // One ID per stream, dense from 1.
  EXPECT_EQ(ids.size(), size_t{kStreams});
  EXPECT_EQ(*ids.begin(), 1u);
  EXPECT_EQ(*ids.rbegin(), uint64_t{kStreams});
}

TEST(KernelObserver, CopiesOnlyWhenWatched) {
  KernelObserver o;
  o.Watch(false, true);
  EXPECT_EQ(o.OnEnqueue(OnStream(gpu::OpKind::kDispatch, 0)), 0u);
  EXPECT_EQ(o.OnEnqueue(OnStream(gpu::OpKind::kBarrier, 0)), 0u);
  EXPECT_NE(o.OnEnqueue(OnStream(gpu::OpKind::kCopy, 0)), 0u);
}

TEST(KernelObserver, WakesTheToolWhenManyRowsWait) {
  int wakes = 0;
  KernelObserver o([&] { ++wakes; });
  for (size_t i = 0; i < KernelObserver::kWakeRows - 1; ++i) {
    o.OnDispatch(Completed(1, 1), i + 1);
  }
  EXPECT_EQ(wakes, 0);
  o.OnDispatch(Completed(1, 1), KernelObserver::kWakeRows);
  EXPECT_EQ(wakes, 1);
  o.OnDispatch(Completed(1, 1), KernelObserver::kWakeRows + 1);
  EXPECT_EQ(wakes, 1);  // once per crossing, not per row
  EXPECT_EQ(o.Take().size(), KernelObserver::kWakeRows + 1);
}

TEST(KernelObserver, RunningOutOfMemoryLosesRowsNotTheProgram) {
  KernelObserver o;
  o.Watch(true, true);
  o.OnKernelSymbol(Symbol(true, 0x1000, 64));
  const uint64_t dispatch = o.OnEnqueue(Enqueue(gpu::OpKind::kDispatch));
  const uint64_t copy = o.OnEnqueue(Enqueue(gpu::OpKind::kCopy));
  gpu::DispatchRecord r = Completed(0x1000, 1);
  r.kernel_name = "a_kernel_name_longer_than_the_small_string_buffer";
  gpu::CopyRecord c{};
  c.bytes = 10;
  t_fail_allocations = true;
  o.OnDispatch(r, dispatch);
  o.OnCopy(c, copy);
  o.OnKernelSymbol(Symbol(true, 0x2000, 32));
  t_fail_allocations = false;
  EXPECT_EQ(o.lost(), 3u);
  EXPECT_TRUE(o.Take().empty());
  EXPECT_TRUE(o.TakeCopies().empty());
  // Memory back: rows are kept again.
  o.OnDispatch(r, dispatch);
  o.OnCopy(c, copy);
  EXPECT_EQ(o.Take().size(), 1u);
  EXPECT_EQ(o.TakeCopies().size(), 1u);
  EXPECT_EQ(o.lost(), 3u);
}

TEST(KernelObserver, RegistersThroughThePrivateExport) {
  KernelObserver o;
  const uint32_t abi = gpu::kObserverAbiVersion;
  // Another seam layout is refused.
  EXPECT_FALSE(roctracer_internal_gpu_add_observer(abi + 1, &o));
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(abi, &o));
  roctracer_internal_gpu_remove_observer(&o);
  // Slots are limited: registering more observers than the seam holds
  // fails; removing them frees the slots again.
  std::vector<std::unique_ptr<KernelObserver>> many;
  bool refused = false;
  for (int i = 0; i <= gpu::kMaxObservers && !refused; ++i) {
    many.push_back(std::make_unique<KernelObserver>());
    refused = !roctracer_internal_gpu_add_observer(abi, many.back().get());
  }
  EXPECT_TRUE(refused);
  for (auto& m : many) roctracer_internal_gpu_remove_observer(m.get());
  EXPECT_TRUE(roctracer_internal_gpu_add_observer(abi, &o));
  roctracer_internal_gpu_remove_observer(&o);
}

}  // namespace
}  // namespace roctrace
