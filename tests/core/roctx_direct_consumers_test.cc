// Consumers registered with libroctx itself, without a tracer: ROCm 5.2.3's
// RegisterApiCallback / RemoveApiCallback / RangeStackIterate and ROCm 5.3+'s
// roctxRegisterTracerCallback. No tracer is attached here. Registrations are
// process-wide and range recording, once started, stays on: the cases run in
// file order (the first checks what happens before any registration).
#include <gtest/gtest.h>
#include <roctracer_roctx.h>
#include <roctx.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Seen {
  uint32_t domain;
  uint32_t op;
  std::string message;  // "(null)" for a NULL message
  uint64_t id;
};

std::string Text(const char* s) { return s != nullptr ? s : "(null)"; }

Seen Decode(uint32_t domain, uint32_t op, const void* data) {
  const auto* d = static_cast<const roctx_api_data_t*>(data);
  Seen s{domain, op, "", 0};
  switch (op) {
    case ROCTX_API_ID_roctxMarkA:
      s.message = Text(d->args.roctxMarkA.message);
      break;
    case ROCTX_API_ID_roctxRangePushA:
      s.message = Text(d->args.roctxRangePushA.message);
      break;
    case ROCTX_API_ID_roctxRangeStartA:
      s.message = Text(d->args.roctxRangeStartA.message);
      s.id = d->args.roctxRangeStartA.id;
      break;
    case ROCTX_API_ID_roctxRangeStop:
      s.id = d->args.roctxRangeStop.id;
      break;
    default:
      break;
  }
  return s;
}

std::vector<Seen> g_tracer_seen;
int TracerHook(activity_domain_t domain, uint32_t op, void* data) {
  g_tracer_seen.push_back(Decode(domain, op, data));
  return 0;
}

struct PerOpLog {
  std::vector<Seen> seen;
  std::vector<void*> args;
};
PerOpLog g_per_op;
void PerOpCallback(uint32_t domain, uint32_t op, const void* data, void* arg) {
  g_per_op.seen.push_back(Decode(domain, op, data));
  g_per_op.args.push_back(arg);
}

// Annotates from inside its own delivery: must not be called again.
int g_reentrant_calls = 0;
void ReentrantCallback(uint32_t, uint32_t, const void*, void*) {
  ++g_reentrant_calls;
  roctxMarkA("from inside");
  roctxRangePushA("inside range");
  roctxRangePop();
}

std::vector<std::pair<uint32_t, std::string>> OpenRanges() {
  std::vector<std::pair<uint32_t, std::string>> out;
  RangeStackIterate(
      [](const roctx_range_data_t* data, void* arg) {
        static_cast<std::vector<std::pair<uint32_t, std::string>>*>(arg)
            ->emplace_back(data->tid, data->message);
      },
      &out);
  return out;
}

uint32_t Tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

TEST(RoctxDirectConsumers, RangeStacksAreRecordedFromTheFirstRegistration) {
  ASSERT_EQ(roctxRangePushA("before"), 0);
  EXPECT_TRUE(OpenRanges().empty());
  RangeStackIterate(nullptr, nullptr);  // nothing to call: no crash

  ASSERT_TRUE(RegisterApiCallback(ROCTX_API_ID_roctxMarkA,
                                  reinterpret_cast<void*>(&PerOpCallback),
                                  nullptr));
  ASSERT_TRUE(RemoveApiCallback(ROCTX_API_ID_roctxMarkA));
  ASSERT_EQ(roctxRangePushA("outer"), 1);
  ASSERT_EQ(roctxRangePushA(nullptr), 2);

  // Another thread holds a range open while this one asks.
  std::mutex mu;
  std::condition_variable cv;
  bool pushed = false, done = false;
  uint32_t other_tid = 0;
  std::thread other([&] {
    roctxRangePushA("other thread");
    std::unique_lock<std::mutex> lock(mu);
    other_tid = Tid();
    pushed = true;
    cv.notify_all();
    cv.wait(lock, [&] { return done; });
    lock.unlock();
    roctxRangePop();
  });
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return pushed; });
  }
  auto ranges = OpenRanges();
  std::vector<std::pair<uint32_t, std::string>> mine, theirs;
  for (const auto& r : ranges) (r.first == Tid() ? mine : theirs).push_back(r);
  // Innermost first; "before" was opened before recording began.
  EXPECT_EQ(mine, (std::vector<std::pair<uint32_t, std::string>>{
                      {Tid(), ""}, {Tid(), "outer"}}));
  EXPECT_EQ(theirs, (std::vector<std::pair<uint32_t, std::string>>{
                        {other_tid, "other thread"}}));
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    cv.notify_all();
  }
  other.join();

  ASSERT_EQ(roctxRangePop(), 2);
  ASSERT_EQ(roctxRangePop(), 1);
  ASSERT_EQ(roctxRangePop(), 0);  // "before": nothing recorded to remove
  EXPECT_TRUE(OpenRanges().empty());
}

TEST(RoctxDirectConsumers, PerOperationCallbacksGetTheirOpsOnly) {
  EXPECT_FALSE(RegisterApiCallback(
      ROCTX_API_ID_NUMBER, reinterpret_cast<void*>(&PerOpCallback), nullptr));
  EXPECT_FALSE(RemoveApiCallback(ROCTX_API_ID_NUMBER));
  int tag = 0;
  for (uint32_t op :
       {ROCTX_API_ID_roctxMarkA, ROCTX_API_ID_roctxRangePushA,
        ROCTX_API_ID_roctxRangeStartA, ROCTX_API_ID_roctxRangeStop}) {
    ASSERT_TRUE(
        RegisterApiCallback(op, reinterpret_cast<void*>(&PerOpCallback), &tag));
  }
  g_per_op = {};
  roctxMarkA("mark");
  roctxRangePushA("push");
  roctxRangePop();  // not registered
  const roctx_range_id_t id = roctxRangeStartA("start");
  roctxRangeStop(id);
  ASSERT_EQ(g_per_op.seen.size(), 4u);
  EXPECT_EQ(g_per_op.seen[0].op, ROCTX_API_ID_roctxMarkA);
  EXPECT_EQ(g_per_op.seen[0].message, "mark");
  EXPECT_EQ(g_per_op.seen[1].op, ROCTX_API_ID_roctxRangePushA);
  EXPECT_EQ(g_per_op.seen[1].message, "push");
  EXPECT_EQ(g_per_op.seen[2].op, ROCTX_API_ID_roctxRangeStartA);
  EXPECT_EQ(g_per_op.seen[2].message, "start");
  EXPECT_EQ(g_per_op.seen[2].id, id);
  EXPECT_EQ(g_per_op.seen[3].op, ROCTX_API_ID_roctxRangeStop);
  EXPECT_EQ(g_per_op.seen[3].id, id);
  for (const Seen& s : g_per_op.seen) {
    EXPECT_EQ(s.domain, ACTIVITY_DOMAIN_ROCTX);
  }
  for (void* arg : g_per_op.args) EXPECT_EQ(arg, &tag);

  // Removed, and unregistered by a NULL callback: nothing more.
  EXPECT_TRUE(RemoveApiCallback(ROCTX_API_ID_roctxMarkA));
  EXPECT_TRUE(
      RegisterApiCallback(ROCTX_API_ID_roctxRangePushA, nullptr, nullptr));
  EXPECT_TRUE(RemoveApiCallback(ROCTX_API_ID_roctxRangeStartA));
  EXPECT_TRUE(RemoveApiCallback(ROCTX_API_ID_roctxRangeStop));
  g_per_op = {};
  roctxMarkA("mark");
  roctxRangePushA("push");
  roctxRangePop();
  roctxRangeStop(roctxRangeStartA("start"));
  EXPECT_TRUE(g_per_op.seen.empty());
}

TEST(RoctxDirectConsumers, CallbacksAreNotReenteredByTheirOwnAnnotations) {
  ASSERT_TRUE(RegisterApiCallback(ROCTX_API_ID_roctxMarkA,
                                  reinterpret_cast<void*>(&ReentrantCallback),
                                  nullptr));
  g_reentrant_calls = 0;
  roctxMarkA("outside");
  EXPECT_EQ(g_reentrant_calls, 1);
  ASSERT_TRUE(RemoveApiCallback(ROCTX_API_ID_roctxMarkA));
  EXPECT_TRUE(OpenRanges().empty());  // the inner push was popped
}

TEST(RoctxDirectConsumers, TracerHookGetsEveryAnnotationUntilUnregistered) {
  g_tracer_seen.clear();
  roctxRegisterTracerCallback(&TracerHook);
  roctxMarkA(nullptr);
  EXPECT_EQ(roctxRangePushA("range"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  // Nothing open: -1, and reported all the same, as ROCm's libroctx reports
  // every pop before it looks at the level.
  EXPECT_EQ(roctxRangePop(), -1);
  const roctx_range_id_t id = roctxRangeStartA("start");
  roctxRangeStop(id);
  roctxRegisterTracerCallback(nullptr);
  roctxMarkA("after");

  ASSERT_EQ(g_tracer_seen.size(), 6u);
  const uint32_t ops[] = {
      ROCTX_API_ID_roctxMarkA,       ROCTX_API_ID_roctxRangePushA,
      ROCTX_API_ID_roctxRangePop,    ROCTX_API_ID_roctxRangePop,
      ROCTX_API_ID_roctxRangeStartA, ROCTX_API_ID_roctxRangeStop};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(g_tracer_seen[i].domain, ACTIVITY_DOMAIN_ROCTX);
    EXPECT_EQ(g_tracer_seen[i].op, ops[i]);
  }
  EXPECT_EQ(g_tracer_seen[0].message, "(null)");
  EXPECT_EQ(g_tracer_seen[1].message, "range");
  EXPECT_EQ(g_tracer_seen[4].message, "start");
  EXPECT_EQ(g_tracer_seen[4].id, id);
  EXPECT_EQ(g_tracer_seen[5].id, id);
}

}  // namespace
