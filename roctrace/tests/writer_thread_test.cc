// The writer thread's queue: its bound, and when a pusher that found it full
// goes on.
#include "roctrace/writers/writer_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace roctrace {
namespace {

using std::chrono::milliseconds;

// A writer whose each Write waits for a permit from the test.
class GatedWriter : public Writer {
 public:
  void Write(const ApiEvent&) override {
    std::unique_lock<std::mutex> lock(mutex_);
    ++started_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return permits_ > 0; });
    --permits_;
  }
  void Finish(const RunInfo&) override {}
  std::vector<std::string> Files() const override { return {}; }

  void Permit(int n) {
    std::lock_guard<std::mutex> lock(mutex_);
    permits_ += n;
    changed_.notify_all();
  }
  // Waits until the writer is in its `n`th Write.
  bool AwaitStarted(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10),
                             [&] { return started_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int started_ = 0;
  int permits_ = 0;
};

EventBatch OneEvent(const OpName* op, uint64_t id) {
  auto batch = std::make_shared<EventList>();
  batch->AppendCall(op, id, 1, 2, 3, 4, false, false, 0, 0, nullptr, 0);
  batch->Publish();
  return batch;
}

// A full queue's pusher waits until half of it has been written, not just
// one batch: then it pushes several without waiting again.
TEST(WriterThread, AFullQueuesPusherGoesOnOnceHalfIsTaken) {
  constexpr size_t kBound = 8;
  OpName op;
  op.name = "hipGetErrorString";
  auto owned = std::make_unique<GatedWriter>();
  GatedWriter* writer = owned.get();
  WriterThread thread(std::move(owned), kBound);
  // A full queue wakes the writer; it takes batch 0 and waits in its Write.
  for (uint64_t i = 0; i < kBound; ++i) thread.Push(OneEvent(&op, i));
  ASSERT_TRUE(writer->AwaitStarted(1));
  thread.Push(OneEvent(&op, kBound));  // full again
  std::atomic<bool> pushed{false};
  std::thread pusher([&] {
    thread.Push(OneEvent(&op, kBound + 1));
    pushed.store(true);
  });
  const auto blocked_by =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!thread.pusher_waiting() &&
         std::chrono::steady_clock::now() < blocked_by) {
    std::this_thread::sleep_for(milliseconds(1));
  }
  if (!thread.pusher_waiting()) {
    ADD_FAILURE() << "the pusher never waited for room";
    writer->Permit(1000);
    pusher.join();
    return;
  }
  // Each permit lets the writer finish a batch and take the next.
  for (size_t taken = 1; taken < kBound / 2; ++taken) {
    writer->Permit(1);
    ASSERT_TRUE(writer->AwaitStarted(static_cast<int>(taken) + 1));
    std::this_thread::sleep_for(milliseconds(20));
    EXPECT_FALSE(pushed.load()) << "went on with " << kBound - taken << " of "
                                << kBound << " batches queued";
  }
  writer->Permit(1);  // the queue is down to half
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!pushed.load() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(milliseconds(1));
  }
  EXPECT_TRUE(pushed.load());
  pusher.join();
  writer->Permit(1000);
  thread.Finish(RunInfo());
}

}  // namespace
}  // namespace roctrace
