// rocpd_arg rows as the rocpd writer writes them, read back with SQLite:
// calls of one operation whose argument bytes repeat, change and repeat
// again each get their own call's values, and a stream argument's extdata
// follows the event's stream.
#include <gtest/gtest.h>
#include <roctracer.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "hip_api_data.h"
#include "hip_api_id.h"
#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tool/arg_capture.h"
#include "roctrace/writers/rocpd_writer.h"

namespace roctrace {
namespace {

std::vector<std::string> Rows(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  std::vector<std::string> rows;
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      if (i != 0) row += "|";
      const unsigned char* text = sqlite3_column_text(st, i);
      row += text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
    }
    rows.push_back(row);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return rows;
}

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

TEST_F(RocpdArgsTest, RepeatedAndChangedArgumentsEachKeepTheirValues) {
  const OpName memcpy_name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API", 0};
  const ApiArgs* a = Memcpy(0x2000, 64);
  const ApiArgs* b = Memcpy(0x2000, 65);  // one argument differs
  Write(&memcpy_name, a);
  Write(&memcpy_name, a);
  Write(&memcpy_name, b);
  Write(&memcpy_name, b);
  Write(&memcpy_name, a);
  writer_.Finish(info_);
  const std::vector<std::string> rows =
      Rows(dir_ / "t_results.db",
           "SELECT event_id, position, type, name, value FROM rocpd_arg "
           "WHERE name = 'sizeBytes' OR position = 0 ORDER BY id");
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "1|0|void*|dst|0x2000",
                      "1|2|unsigned long|sizeBytes|64",
                      "2|0|void*|dst|0x2000",
                      "2|2|unsigned long|sizeBytes|64",
                      "3|0|void*|dst|0x2000",
                      "3|2|unsigned long|sizeBytes|65",
                      "4|0|void*|dst|0x2000",
                      "4|2|unsigned long|sizeBytes|65",
                      "5|0|void*|dst|0x2000",
                      "5|2|unsigned long|sizeBytes|64",
                  }));
  EXPECT_EQ(Rows(dir_ / "t_results.db",
                 "SELECT count(*), count(DISTINCT id) FROM rocpd_arg"),
            std::vector<std::string>{"20|20"});
}

TEST_F(RocpdArgsTest, TheSameStreamArgumentFollowsTheEventsStream) {
  const OpName sync{Category::kHip, "hipStreamSynchronize", "HIP_RUNTIME_API",
                    0};
  const ApiArgs* s = Synchronize(0x5000);
  Write(&sync, s, true, 1);
  Write(&sync, s, true, 1);
  Write(&sync, s, true, 2);  // the same bytes, another Stream_Id
  Write(&sync, s);           // and none known
  writer_.Finish(info_);
  EXPECT_EQ(Rows(dir_ / "t_results.db",
                 "SELECT event_id, name, value, extdata FROM rocpd_arg "
                 "ORDER BY id"),
            (std::vector<std::string>{
                "1|stream|0x5000|{\"stream_id\":1}",
                "2|stream|0x5000|{\"stream_id\":1}",
                "3|stream|0x5000|{\"stream_id\":2}",
                "4|stream|0x5000|{}",
            }));
}

}  // namespace
}  // namespace roctrace
