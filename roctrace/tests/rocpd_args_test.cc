// rocpd_arg rows as the rocpd writer writes them, read back with SQLite:
// calls of one operation whose argument bytes repeat, change and repeat
// again each get their own call's values, and a stream argument's extdata
// follows the event's stream.
#include <gtest/gtest.h>
#include <roctracer.h>

#include <string>
#include <vector>

#include "hip_api_data.h"
#include "hip_api_id.h"
#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tests/sqlite_rows.h"
#include "roctrace/tool/arg_capture.h"
#include "roctrace/writers/rocpd_writer.h"

namespace roctrace {
namespace {

class RocpdArgsTest : public ::testing::Test {
 protected:
  const ApiArgs* Memcpy(uint64_t dst, uint64_t size) {
    hip_api_data_t d{};
    d.args.hipMemcpy.dst = reinterpret_cast<void*>(dst);
    d.args.hipMemcpy.src = reinterpret_cast<void*>(0x1000);
    d.args.hipMemcpy.sizeBytes = size;
    d.args.hipMemcpy.kind = hipMemcpyHostToDevice;
    return arena_.Add(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy,
                      &d.args.hipMemcpy, sizeof(d.args.hipMemcpy));
  }
  const ApiArgs* Synchronize(uintptr_t stream) {
    hip_api_data_t d{};
    d.args.hipStreamSynchronize.stream = reinterpret_cast<hipStream_t>(stream);
    return arena_.Add(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipStreamSynchronize,
                      &d.args.hipStreamSynchronize,
                      sizeof(d.args.hipStreamSynchronize));
  }
  void Write(const OpName* op, const ApiArgs* args, bool stream_known = false,
             uint64_t stream_id = 0) {
    ApiEvent e{};
    e.op = op;
    e.correlation_id = ++id_;
    e.start_ns = 1000 * id_;
    e.end_ns = e.start_ns + 10;
    e.pid = 42;
    e.tid = 43;
    e.args = args;
    e.stream_known = stream_known;
    e.stream_id = stream_id;
    writer_.Write(e);
  }

  ScratchDir dir_{"rocpd_args_test"};
  ArgArena arena_;
  RunInfo info_ = [] {
    RunInfo info;
    info.pid = 42;
    info.command = "test";
    return info;
  }();
  RocpdWriter writer_{dir_ / "t_results.db", info_};
  uint64_t id_ = 0;
};

// Runs of three calls with the same bytes: the second keeps its rows, the
// third writes them again; a change starts over.
TEST_F(RocpdArgsTest, RepeatedAndChangedArgumentsEachKeepTheirValues) {
  const OpName memcpy_name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API_EXT",
                           0};
  const ApiArgs* a = Memcpy(0x2000, 64);
  const ApiArgs* b = Memcpy(0x2000, 65);  // one argument differs
  for (const ApiArgs* args : {a, a, a, b, b, b, b, a, a, a}) {
    Write(&memcpy_name, args);
  }
  writer_.Finish(info_);
  std::vector<std::string> expected;
  int event = 0;
  for (const char* size :
       {"64", "64", "64", "65", "65", "65", "65", "64", "64", "64"}) {
    ++event;
    expected.push_back(std::to_string(event) + "|0|void*|dst|0x2000");
    expected.push_back(std::to_string(event) + "|1|void const*|src|0x1000");
    expected.push_back(std::to_string(event) + "|2|unsigned long|sizeBytes|" +
                       size);
    expected.push_back(std::to_string(event) +
                       "|3|hipMemcpyKind|kind|hipMemcpyHostToDevice");
  }
  EXPECT_EQ(
      SqliteRows(dir_ / "t_results.db",
                 "SELECT event_id, position, type, name, value FROM rocpd_arg "
                 "ORDER BY id"),
      expected);
  EXPECT_EQ(SqliteRows(dir_ / "t_results.db",
                       "SELECT min(id), max(id), count(*), typeof(extdata) "
                       "FROM rocpd_arg"),
            std::vector<std::string>{"1|40|40|text"});
}

TEST_F(RocpdArgsTest, TheSameStreamArgumentFollowsTheEventsStream) {
  const OpName sync{Category::kHip, "hipStreamSynchronize",
                    "HIP_RUNTIME_API_EXT", 0};
  const ApiArgs* s = Synchronize(0x5000);
  Write(&sync, s, true, 1);
  Write(&sync, s, true, 1);
  Write(&sync, s, true, 1);
  Write(&sync, s, true, 2);  // the same bytes, another Stream_Id
  Write(&sync, s, true, 2);
  Write(&sync, s, true, 2);
  Write(&sync, s);  // and none known
  Write(&sync, s);
  Write(&sync, s);
  writer_.Finish(info_);
  EXPECT_EQ(SqliteRows(dir_ / "t_results.db",
                       "SELECT event_id, name, value, extdata FROM rocpd_arg "
                       "ORDER BY id"),
            (std::vector<std::string>{
                "1|stream|0x5000|{\"stream_id\":1}",
                "2|stream|0x5000|{\"stream_id\":1}",
                "3|stream|0x5000|{\"stream_id\":1}",
                "4|stream|0x5000|{\"stream_id\":2}",
                "5|stream|0x5000|{\"stream_id\":2}",
                "6|stream|0x5000|{\"stream_id\":2}",
                "7|stream|0x5000|{}",
                "8|stream|0x5000|{}",
                "9|stream|0x5000|{}",
            }));
}

// Calls whose stream argument changes every time (no call repeats its
// last), its Stream_Id known for every other one: the parameter's cells are
// encoded by the first call, and the calls with a known stream still get
// their extdata; the others keep the default.
TEST_F(RocpdArgsTest, AStreamArgumentGetsItsExtdataOnceItsCellsAreEncoded) {
  const OpName sync{Category::kHip, "hipStreamSynchronize",
                    "HIP_RUNTIME_API_EXT", 0};
  Write(&sync, Synchronize(0x5000));
  Write(&sync, Synchronize(0x6000), true, 1);
  Write(&sync, Synchronize(0x7000));
  Write(&sync, Synchronize(0x8000), true, 2);
  Write(&sync, Synchronize(0x9000));
  writer_.Finish(info_);
  EXPECT_EQ(SqliteRows(dir_ / "t_results.db",
                       "SELECT event_id, position, type, name, value, extdata "
                       "FROM rocpd_arg ORDER BY id"),
            (std::vector<std::string>{
                "1|0|ihipStream_t*|stream|0x5000|{}",
                "2|0|ihipStream_t*|stream|0x6000|{\"stream_id\":1}",
                "3|0|ihipStream_t*|stream|0x7000|{}",
                "4|0|ihipStream_t*|stream|0x8000|{\"stream_id\":2}",
                "5|0|ihipStream_t*|stream|0x9000|{}",
            }));
}

// Many calls with the same arguments, their event ids and row ids growing
// through every varint and integer width a run reaches, across many leaves
// and checkpoints: every row is there, whole, in a sound file.
TEST_F(RocpdArgsTest, ALongRunOfRepeatedCalls) {
  const OpName memcpy_name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API_EXT",
                           0};
  const ApiArgs* a = Memcpy(0x7f3a12000000, 4096);
  constexpr int kCalls = 40000;
  for (int i = 0; i < kCalls; ++i) {
    Write(&memcpy_name, a);
    if (i % 9999 == 0) writer_.Checkpoint();
  }
  writer_.Finish(info_);
  const std::string db = dir_ / "t_results.db";
  EXPECT_EQ(SqliteRows(db, "PRAGMA integrity_check"),
            std::vector<std::string>{"ok"});
  EXPECT_EQ(
      SqliteRows(db,
                 "SELECT count(*), count(DISTINCT event_id), min(event_id), "
                 "max(event_id), max(id) FROM rocpd_arg"),
      std::vector<std::string>{"160000|40000|1|40000|160000"});
  EXPECT_EQ(
      SqliteRows(db,
                 "SELECT position, type, name, value, count(*) FROM rocpd_arg "
                 "GROUP BY 1, 2, 3, 4 ORDER BY 1"),
      (std::vector<std::string>{
          "0|void*|dst|0x7f3a12000000|40000",
          "1|void const*|src|0x1000|40000",
          "2|unsigned long|sizeBytes|4096|40000",
          "3|hipMemcpyKind|kind|hipMemcpyHostToDevice|40000",
      }));
  // Each event's rows are its own, in order.
  EXPECT_EQ(SqliteRows(db,
                       "SELECT count(*) FROM rocpd_arg "
                       "WHERE id != (event_id - 1) * 4 + position + 1"),
            std::vector<std::string>{"0"});
}

// A large run as the writer's threads hand it over (WriteAll in runs of
// 8): 300,000 calls of two operations, one repeating its arguments (rows
// copied whole), one changing them every call (rows printed), through
// every width their ids reach and many leaves and checkpoints. The file
// is sound (PRAGMA integrity_check) and every row reads back with its
// values: the events, the regions (the 0s and 1s of no bytes included)
// and the arguments.
TEST_F(RocpdArgsTest, ALargeRunReadsBackWhole) {
  const OpName memcpy_name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API", 0};
  const OpName sync{Category::kHip, "hipStreamSynchronize", "HIP_RUNTIME_API",
                    1};
  const ApiArgs* repeated = Memcpy(0x7f3a12000000, 4096);
  constexpr int kCalls = 300000;
  std::vector<ApiEvent> run;
  for (int i = 0; i < kCalls; ++i) {
    ApiEvent e{};
    e.op = i % 3 == 2 ? &sync : &memcpy_name;
    e.correlation_id = ++id_;
    e.start_ns = 86400000000000 + 1000 * id_;
    e.end_ns = e.start_ns + 10 + id_ % 7;
    e.pid = 42;
    e.tid = 43 + id_ % 2;
    e.args = i % 3 == 2 ? Synchronize(0x5000 + 16 * id_) : repeated;
    run.push_back(e);
    if (run.size() == 8) {
      writer_.WriteAll(run.data(), run.data() + run.size());
      run.clear();
    }
    if (i % 65536 == 0) writer_.Checkpoint();
  }
  writer_.WriteAll(run.data(), run.data() + run.size());
  writer_.Finish(info_);
  const std::string db = dir_ / "t_results.db";
  EXPECT_EQ(SqliteRows(db, "PRAGMA integrity_check"),
            std::vector<std::string>{"ok"});
  EXPECT_EQ(
      SqliteRows(db,
                 "SELECT count(*), min(id), max(id), "
                 "sum(stack_id = correlation_id AND correlation_id = id), "
                 "sum(parent_stack_id = 0) FROM rocpd_event"),
      std::vector<std::string>{"300000|1|300000|300000|300000"});
  EXPECT_EQ(SqliteRows(db,
                       "SELECT count(*), sum(nid = 1 AND pid = 1), "
                       "sum(event_id = id), sum(start = 86400000000000 + 1000 "
                       "* id), sum(\"end\" - start = 10 + id % 7) FROM "
                       "rocpd_region"),
            std::vector<std::string>{"300000|300000|300000|300000|300000"});
  EXPECT_EQ(SqliteRows(db,
                       "SELECT T.tid, count(*) FROM rocpd_region R JOIN "
                       "rocpd_info_thread T ON T.id = R.tid GROUP BY 1"),
            (std::vector<std::string>{"43|150000", "44|150000"}));
  EXPECT_EQ(SqliteRows(db,
                       "SELECT count(*), max(id), count(DISTINCT event_id) "
                       "FROM rocpd_arg"),
            std::vector<std::string>{"900000|900000|300000"});
  EXPECT_EQ(SqliteRows(db,
                       "SELECT count(*) FROM rocpd_arg A JOIN rocpd_region R "
                       "ON R.id = A.event_id JOIN rocpd_string S ON S.id = "
                       "R.name_id WHERE S.string = 'hipMemcpy' AND "
                       "A.event_id % 3 != 0 AND A.id = (A.event_id - 1) / 3 "
                       "* 9 + (A.event_id - 1) % 3 * 4 + A.position + 1"),
            std::vector<std::string>{"800000"});
  EXPECT_EQ(SqliteRows(db,
                       "SELECT count(*) FROM rocpd_arg WHERE name = 'stream' "
                       "AND value = printf('0x%x', 0x5000 + 16 * event_id)"),
            std::vector<std::string>{"100000"});
}

}  // namespace
}  // namespace roctrace
