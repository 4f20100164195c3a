// Rows the appender writes as b-tree pages, read back by SQLite itself:
// exactly, through rocpd's `regions` view, with PRAGMA integrity_check, for
// empty, one-row, one-page and three-level tables, published in batches
// between SQLite's own transactions that grow the file.
#include "roctrace/writers/sqlite_table_appender.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"
#include "roctrace/writers/fd_safe_vfs.h"
#include "roctrace/writers/rocpd_schema.h"
#include "roctrace/writers/sqlite_leaf_cells.h"

namespace roctrace {
namespace {

std::vector<std::vector<std::string>> Rows(sqlite3* db, const char* sql) {
  std::vector<std::vector<std::string>> rows;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const unsigned char* text = sqlite3_column_text(st, c);
      row.push_back(text != nullptr ? reinterpret_cast<const char*>(text)
                                    : "NULL");
    }
    rows.push_back(row);
  }
  sqlite3_finalize(st);
  return rows;
}

std::string One(sqlite3* db, const char* sql) {
  auto rows = Rows(db, sql);
  return rows.empty() || rows[0].empty() ? "" : rows[0][0];
}

void Exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK)
      << err;
}

// A value of every integer width SQLite stores (0 and 1 have no bytes,
// then 1, 2, 3, 4, 6 and 8 bytes), both signs.
int64_t Wide(int64_t i) {
  static const int64_t kValues[] = {0,
                                    1,
                                    -1,
                                    127,
                                    -128,
                                    128,
                                    32767,
                                    -32769,
                                    8388607,
                                    8388608,
                                    2147483647,
                                    -2147483649ll,
                                    140737488355327ll,
                                    -140737488355329ll,
                                    std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min()};
  return kValues[i % 16];
}

// b-tree depth of a table, as SQLite's dbstat sees it ("/" the root,
// "/000/" its first child, ...).
int Depth(const std::string& path, const char* table) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  const std::string sql =
      std::string(
          "SELECT max(length(path) - length(replace(path, '/', ''))) "
          "FROM dbstat WHERE name = '") +
      table + "'";
  const int depth = std::stoi(One(db, sql.c_str()));
  sqlite3_close(db);
  return depth;
}

struct Database {
  // `vfs`: SQLite's default when null.
  explicit Database(int page_size, const char* vfs = nullptr) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db,
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs),
              SQLITE_OK);
    Exec(db, "PRAGMA page_size=" + std::to_string(page_size) +
                 "; PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;");
    Exec(db, RocpdSchemaSql("guid-1"));
    Exec(db,
         "INSERT INTO rocpd_string(id, string) VALUES (1, 'HIP_API'), "
         "(2, 'hipA'), (3, 'hipB');"
         "INSERT INTO rocpd_info_node(id, hash, machine_id) VALUES (1, 1, "
         "'m');"
         "INSERT INTO rocpd_info_process(id, nid, pid) VALUES (1, 1, 77);"
         "INSERT INTO rocpd_info_thread(id, nid, pid, tid) VALUES (1, 1, 1, "
         "700), (2, 1, 1, 701);");
  }
  ~Database() { sqlite3_close(db); }
  const ScratchDir dir{"appender_test"};
  const std::string path = dir / "t.db";
  sqlite3* db = nullptr;
};

// Appends `n` events (a rocpd_event and a rocpd_region row each) in batches
// of random size, each batch published by Flush() after a SQLite
// transaction that adds large strings (new pages at the file's end), then
// reads everything back through SQLite.
// `depth`: the b-tree levels rocpd_region must have (0: no check).
// `vfs`, `max_write`: the database's VFS (SQLite's default when null) and
// the appender's largest write (its default when 0).
void AppendAndReadBack(int page_size, int64_t n, int64_t max_batch,
                       int depth = 0, const char* vfs = nullptr,
                       size_t max_write = 0) {
  Database d(page_size, vfs);
  std::string error;
  auto appender = SqliteTableAppender::Open(
      d.db, {{"rocpd_event", 4}, {"rocpd_region", 7}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  if (max_write != 0) appender->SetMaxWrite(max_write);
  std::mt19937_64 rng(static_cast<uint64_t>(n * 31 + page_size));
  int64_t id = 0;
  int strings = 0;
  while (id < n) {
    const int64_t batch =
        std::min<int64_t>(n - id, 1 + static_cast<int64_t>(rng() % max_batch));
    for (int64_t b = 0; b < batch; ++b) {
      ++id;
      const int64_t event[4] = {1, Wide(id), 0, id * 1000003};
      appender->Append(0, id, event);
      const int64_t region[7] = {1,
                                 1,
                                 1 + id % 2,
                                 86400000000000 + id * 57,
                                 86400000000000 + id * 57 + 40,
                                 2 + id % 2,
                                 id};
      appender->Append(1, id, region);
    }
    Exec(d.db, "BEGIN; INSERT INTO rocpd_string(string) VALUES ('" +
                   std::string(static_cast<size_t>(page_size) / 2, 'x') +
                   std::to_string(++strings) + "'); COMMIT;");
    ASSERT_TRUE(appender->Flush(&error)) << error;
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;

  // A fresh connection, as a reader of the finished file would.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  EXPECT_EQ(Rows(db, "PRAGMA integrity_check"),
            std::vector<std::vector<std::string>>{{"ok"}});
  auto events = Rows(db,
                     "SELECT id, category_id, stack_id, parent_stack_id, "
                     "correlation_id, typeof(stack_id), call_stack, "
                     "line_info, extdata, guid FROM rocpd_event ORDER BY id");
  ASSERT_EQ(static_cast<int64_t>(events.size()), n);
  for (int64_t i = 1; i <= n; ++i) {
    const std::vector<std::string> want = {std::to_string(i),
                                           "1",
                                           std::to_string(Wide(i)),
                                           "0",
                                           std::to_string(i * 1000003),
                                           "integer",
                                           "{}",
                                           "{}",
                                           "{}",
                                           "guid-1"};
    ASSERT_EQ(events[static_cast<size_t>(i - 1)], want) << "event " << i;
  }
  auto regions = Rows(db,
                      "SELECT id, category, name, pid, tid, start, \"end\", "
                      "duration, event_id, corr_id FROM regions ORDER BY id");
  ASSERT_EQ(static_cast<int64_t>(regions.size()), n);
  for (int64_t i = 1; i <= n; ++i) {
    const int64_t start = 86400000000000 + i * 57;
    const std::vector<std::string> want = {
        std::to_string(i),          "HIP_API",
        i % 2 ? "hipB" : "hipA",    "77",
        i % 2 ? "701" : "700",      std::to_string(start),
        std::to_string(start + 40), "40",
        std::to_string(i),          std::to_string(i * 1000003)};
    ASSERT_EQ(regions[static_cast<size_t>(i - 1)], want) << "region " << i;
  }
  // Look-ups by id go down the interior pages.
  if (n > 0) {
    const std::string mid = std::to_string((n + 1) / 2);
    EXPECT_EQ(
        One(db, ("SELECT correlation_id FROM rocpd_event WHERE id = " + mid)
                    .c_str()),
        std::to_string((n + 1) / 2 * 1000003));
  }
  EXPECT_EQ(One(db,
                "SELECT count(*) FROM dbstat WHERE pagetype = 'overflow' AND "
                "name IN ('rocpd_event', 'rocpd_region')"),
            "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM rocpd_string"),
            std::to_string(3 + strings));
  sqlite3_close(db);
  if (depth != 0) {
    EXPECT_EQ(Depth(d.path, "rocpd_region"), depth);
  }
}

// The appender's records take the bytes SQLite's own take for the same
// values: in a database of schema format 4 (SQLite's default) 0 and 1 are
// serial types 8 and 9, with no bytes. Twin tables of the same columns,
// filled by SQLite's INSERT, are the reference; dbstat sums each table's
// record bytes.
TEST(SqliteTableAppender, RecordsTakeTheBytesSqlitesOwnTake) {
  Database d(4096);
  Exec(d.db,
       "CREATE TABLE twin_event(id INTEGER PRIMARY KEY, a, b, c, d);"
       "CREATE TABLE twin_region(id INTEGER PRIMARY KEY, a, b, c, d, e, f, "
       "g);");
  std::string error;
  auto appender = SqliteTableAppender::Open(
      d.db, {{"rocpd_event", 4}, {"rocpd_region", 7}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  Exec(d.db, "BEGIN");
  for (int64_t id = 1; id <= 3000; ++id) {
    const int64_t event[4] = {id % 3, Wide(id), 0, id * 1000003};
    appender->Append(0, id, event);
    const int64_t region[7] = {
        1, 1, id % 2, 86400000000000 + id * 57, Wide(id), id % 5, id};
    appender->Append(1, id, region);
    std::string values;
    for (int64_t v : event) values += "," + std::to_string(v);
    Exec(d.db,
         "INSERT INTO twin_event VALUES(" + std::to_string(id) + values + ")");
    values.clear();
    for (int64_t v : region) values += "," + std::to_string(v);
    Exec(d.db,
         "INSERT INTO twin_region VALUES(" + std::to_string(id) + values + ")");
  }
  Exec(d.db, "COMMIT");
  ASSERT_TRUE(appender->Flush(&error)) << error;
  EXPECT_EQ(One(d.db, "PRAGMA integrity_check"), "ok");
  auto payload = [&d](const char* table) {
    return One(d.db, (std::string("SELECT sum(payload) FROM dbstat WHERE "
                                  "pagetype = 'leaf' AND name = '") +
                      table + "'")
                         .c_str());
  };
  EXPECT_EQ(payload("rocpd_event"), payload("twin_event"));
  EXPECT_EQ(payload("rocpd_region"), payload("twin_region"));
  EXPECT_EQ(One(d.db,
                "SELECT count(*) FROM rocpd_region R JOIN twin_region "
                "T USING (id) WHERE R.nid = T.a AND R.pid = T.b AND "
                "R.tid = T.c AND R.start = T.d AND R.\"end\" = T.e AND "
                "R.name_id = T.f AND R.event_id = T.g"),
            "3000");
}

// Rows of every column count the appender takes (1 to 8), each column a
// value of every width in turn and runs of one layout (the common row),
// read back exactly, in as many record bytes as SQLite's own INSERT takes
// for a twin table.
template <size_t kColumns>
void ColumnCountReadsBack() {
  SCOPED_TRACE(kColumns);
  Database d(1024);
  std::string columns;
  for (size_t c = 0; c < kColumns; ++c) columns += ", c" + std::to_string(c);
  Exec(d.db, "CREATE TABLE t(id INTEGER PRIMARY KEY" + columns +
                 "); CREATE TABLE twin(id INTEGER PRIMARY KEY" + columns + ")");
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"t", kColumns}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  Exec(d.db, "BEGIN");
  std::vector<std::vector<std::string>> expected;
  for (int64_t id = 1; id <= 400; ++id) {
    int64_t row[kColumns];
    // Four rows of one layout, then the next widths.
    for (size_t c = 0; c < kColumns; ++c) row[c] = Wide(id / 4 + c);
    appender->Append(0, id, row);
    std::vector<std::string> text{std::to_string(id)};
    std::string values;
    for (int64_t v : row) {
      text.push_back(std::to_string(v));
      values += "," + std::to_string(v);
    }
    expected.push_back(text);
    Exec(d.db, "INSERT INTO twin VALUES(" + std::to_string(id) + values + ")");
  }
  Exec(d.db, "COMMIT");
  ASSERT_TRUE(appender->Flush(&error)) << error;
  EXPECT_EQ(One(d.db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(Rows(d.db, "SELECT * FROM t ORDER BY id"), expected);
  EXPECT_EQ(One(d.db,
                "SELECT sum(payload) FROM dbstat WHERE pagetype = 'leaf' AND "
                "name = 't'"),
            One(d.db,
                "SELECT sum(payload) FROM dbstat WHERE pagetype = 'leaf' AND "
                "name = 'twin'"));
}

TEST(SqliteTableAppender, EveryColumnCountReadsBackExactly) {
  ColumnCountReadsBack<1>();
  ColumnCountReadsBack<2>();
  ColumnCountReadsBack<3>();
  ColumnCountReadsBack<4>();
  ColumnCountReadsBack<5>();
  ColumnCountReadsBack<6>();
  ColumnCountReadsBack<7>();
  ColumnCountReadsBack<8>();
}

TEST(SqliteTableAppender, NoRows) { AppendAndReadBack(512, 0, 1); }

TEST(SqliteTableAppender, OneRow) { AppendAndReadBack(512, 1, 1); }

TEST(SqliteTableAppender, OnePage) { AppendAndReadBack(4096, 100, 100); }

TEST(SqliteTableAppender, ThreeLevelsInLargeBatches) {
  AppendAndReadBack(512, 5000, 700, 3);
}

// One row a Flush: right-most pages change in place, and a full one that
// must take one more child is replaced by new pages, the old one going to
// SQLite's freelist, from which SQLite's next inserts take pages.
TEST(SqliteTableAppender, ThreeLevelsOneRowAtATime) {
  AppendAndReadBack(512, 2500, 1, 3);
}

// Runs of new leaves longer than SQLite's unix VFS writes at once, through
// a VFS that writes them whole, and page by page.
TEST(SqliteTableAppender, LongRunsInOneWrite) {
  ASSERT_NE(FdSafeVfsName(), nullptr);
  AppendAndReadBack(4096, 60000, 30000, 0, FdSafeVfsName(), size_t{8} << 20);
}

TEST(SqliteTableAppender, LongRunsAPageAWrite) {
  ASSERT_NE(FdSafeVfsName(), nullptr);
  AppendAndReadBack(4096, 20000, 10000, 0, FdSafeVfsName(), 4096);
}

// A writer that flushes when FlushEndsOnMultipleOf says so ends the file
// there each time (a table of two levels: no new interior page), and the
// rows read back.
TEST(SqliteTableAppender, FlushesForeseenToEndOnABoundaryDo) {
  ASSERT_NE(FdSafeVfsName(), nullptr);
  Database d(4096, FdSafeVfsName());
  std::string error;
  auto appender = SqliteTableAppender::Open(
      d.db, {{"rocpd_event", 4}, {"rocpd_region", 7}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  constexpr size_t kBoundary = 64 << 10;
  int flushes = 0;
  int64_t id = 1;
  for (; id <= 40000; ++id) {
    const int64_t event[4] = {1, Wide(id), 0, id * 1000003};
    appender->Append(0, id, event);
    const int64_t region[7] = {
        1, 1, 1 + id % 2, 86400000000000 + id * 57, Wide(id), 2 + id % 2, id};
    appender->Append(1, id, region);
    if (appender->buffered_bytes() < 3 * 4096 || !appender->TakeSealed() ||
        !appender->FlushEndsOnMultipleOf(kBoundary)) {
      continue;
    }
    ASSERT_TRUE(appender->Flush(&error)) << error;
    ++flushes;
    const std::string pages = One(d.db, "PRAGMA page_count");
    ASSERT_EQ(std::stoll(pages) * 4096 % kBoundary, 0u)
        << pages << " pages after flush " << flushes << ", row " << id;
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  EXPECT_GE(flushes, 10);
  EXPECT_EQ(One(d.db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(One(d.db, "SELECT count(*) FROM regions"), std::to_string(id - 1));
  EXPECT_EQ(Depth(d.path, "rocpd_region"), 2);
}

TEST(SqliteTableAppender, ReplacedPagesGoToSqlitesFreelist) {
  Database d(512);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_event", 4}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  for (int64_t id = 1; id <= 8000; ++id) {
    const int64_t event[4] = {1, id, 0, id};
    appender->Append(0, id, event);
    ASSERT_TRUE(appender->Flush(&error)) << error;
  }
  sqlite3* db = nullptr;
  sqlite3_open(d.path.c_str(), &db);
  EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
  const int free_pages = std::stoi(One(db, "PRAGMA freelist_count"));
  EXPECT_GT(free_pages, 0);
  for (int i = 0; i < free_pages; ++i) {
    Exec(db, "INSERT INTO rocpd_string(string) VALUES ('" +
                 std::string(400, 'y') + std::to_string(i) + "')");
  }
  EXPECT_EQ(One(db, "PRAGMA freelist_count"), "0");
  EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(One(db, "SELECT sum(correlation_id) FROM rocpd_event"), "32004000");
  sqlite3_close(db);
}

TEST(SqliteTableAppender, FourLevelsInMixedBatches) {
  AppendAndReadBack(512, 60000, 3000, 4);
}

TEST(SqliteTableAppender, RefusesWhatItCannotAppendTo) {
  Database d(4096);
  std::string error;
  EXPECT_EQ(SqliteTableAppender::Open(d.db, {{"no_such_table", 1}}, &error),
            nullptr);
  EXPECT_NE(error.find("no_such_table"), std::string::npos);
  // rocpd_region's later columns are NOT NULL without a default.
  EXPECT_EQ(SqliteTableAppender::Open(d.db, {{"rocpd_region", 2}}, &error),
            nullptr);
  // Rows of 1 to 8 integers (rows are encoded for a count known when
  // compiled).
  EXPECT_EQ(SqliteTableAppender::Open(d.db, {{"rocpd_event", 0}}, &error),
            nullptr);
  Exec(d.db,
       "CREATE TABLE wide(id INTEGER PRIMARY KEY, a, b, c, d, e, f, g, h, i)");
  EXPECT_EQ(SqliteTableAppender::Open(d.db, {{"wide", 9}}, &error), nullptr);
  EXPECT_NE(SqliteTableAppender::Open(d.db, {{"wide", 8}}, &error), nullptr)
      << error;
  // A table SQLite already wrote rows to.
  Exec(d.db, "INSERT INTO rocpd_event(id) VALUES (1)");
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_event", 4}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  const int64_t event[4] = {1, 2, 3, 4};
  appender->Append(0, 2, event);
  EXPECT_FALSE(appender->Flush(&error));
  EXPECT_NE(error.find("not empty"), std::string::npos) << error;
}

TEST(SqliteTableAppender, RowidsOutOfOrderAreAnError) {
  Database d(4096);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_event", 4}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  const int64_t event[4] = {1, 2, 3, 4};
  appender->Append(0, 5, event);
  appender->Append(0, 5, event);
  EXPECT_FALSE(appender->Flush(&error));
  EXPECT_NE(error.find("rowid 5 after 5"), std::string::npos) << error;
}

TEST(SqliteTableAppender, RowsOfAnotherColumnCountAreAnError) {
  Database d(4096);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_event", 4}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  const int64_t event[3] = {1, 2, 3};
  appender->Append(0, 1, event);
  EXPECT_FALSE(appender->Flush(&error));
  EXPECT_NE(error.find("a row of 3 values for 4 columns"), std::string::npos)
      << error;
}

// Rowids of every varint length, 1 to 9 bytes, at both ends of each
// (each row's varint is encoded whole into one word store, the 9-byte
// ones out of line), read back by id with their values.
TEST(SqliteTableAppender, RowidsOfEveryVarintLengthReadBack) {
  Database d(4096);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_event", 4}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  std::vector<int64_t> rowids;
  for (int bytes = 1; bytes <= 8; ++bytes) {
    const int64_t top = int64_t{1} << (7 * bytes);
    rowids.push_back(top - 2);
    rowids.push_back(top - 1);
  }
  rowids.push_back(int64_t{1} << 56);
  rowids.push_back(std::numeric_limits<int64_t>::max());
  rowids.erase(rowids.begin());  // the first: rowids start above 0
  for (int64_t rowid : rowids) {
    const int64_t event[4] = {rowid % 1000, 0, 1, rowid};
    appender->Append(0, rowid, event);
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  EXPECT_EQ(Rows(d.db, "PRAGMA integrity_check"),
            std::vector<std::vector<std::string>>{{"ok"}});
  auto rows = Rows(d.db,
                   "SELECT id, category_id, stack_id, parent_stack_id, "
                   "correlation_id FROM rocpd_event ORDER BY id");
  ASSERT_EQ(rows.size(), rowids.size());
  for (size_t i = 0; i < rowids.size(); ++i) {
    const int64_t r = rowids[i];
    const std::vector<std::string> want = {std::to_string(r),
                                           std::to_string(r % 1000), "0", "1",
                                           std::to_string(r)};
    EXPECT_EQ(rows[i], want) << "rowid " << r;
  }
}

// rocpd_arg rows (integers and texts) across many leaves and three
// levels, read back exactly: empty texts, multi-byte UTF-8, texts of every
// length up to the longest a row may hold, and long integer widths.
TEST(SqliteTableAppender, TextColumnsReadBackExactly) {
  Database d(1024);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  auto text = [](int64_t i) {
    std::string s;
    for (int64_t k = 0; k < i % 700; ++k) s += static_cast<char>('a' + k % 26);
    return i % 5 == 0 ? s + "\xc3\xa9\xe2\x82\xac" : s;
  };
  const int64_t n = 3000;
  for (int64_t id = 1; id <= n; ++id) {
    const std::string type = id % 3 ? "void**" : "";
    const std::string value = text(id);
    const SqliteTableAppender::Value row[5] = {
        SqliteTableAppender::Integer(Wide(id)),
        SqliteTableAppender::Integer(id % 7),
        SqliteTableAppender::Text(type.data(), type.size()),
        SqliteTableAppender::Text("ptr", 3),
        SqliteTableAppender::Text(value.data(), value.size())};
    appender->AppendRow(0, id, row, 5);
    if (id % 997 == 0) {
      ASSERT_TRUE(appender->Flush(&error)) << error;
    }
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
  auto rows = Rows(db,
                   "SELECT id, event_id, position, type, name, value, "
                   "typeof(value), extdata, guid FROM rocpd_arg ORDER BY id");
  ASSERT_EQ(static_cast<int64_t>(rows.size()), n);
  for (int64_t i = 1; i <= n; ++i) {
    const std::vector<std::string> want = {std::to_string(i),
                                           std::to_string(Wide(i)),
                                           std::to_string(i % 7),
                                           i % 3 ? "void**" : "",
                                           "ptr",
                                           text(i),
                                           "text",
                                           "{}",
                                           "guid-1"};
    ASSERT_EQ(rows[static_cast<size_t>(i - 1)], want) << "arg " << i;
  }
  EXPECT_EQ(One(db,
                "SELECT count(*) FROM dbstat WHERE pagetype = 'overflow' AND "
                "name = 'rocpd_arg'"),
            "0");
  EXPECT_GE(Depth(d.path, "rocpd_arg"), 2);
  sqlite3_close(db);
}

// Rows appended with an encoded tail (EncodeTail once, AppendWithTail for
// each first value of every width, both signs) read back as the rows
// AppendRow writes: texts of every length a row may hold, an integer of
// every width in the tail, extdata given.
TEST(SqliteTableAppender, TailRowsReadBackExactly) {
  Database d(1024);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  auto text = [](int64_t i) {
    std::string s;
    for (int64_t k = 0; k < i % 700; ++k) s += static_cast<char>('a' + k % 26);
    return s;
  };
  const int64_t n = 3000;
  SqliteTableAppender::RowTail tail;
  for (int64_t id = 1; id <= n; ++id) {
    if (id % 50 == 1) {  // a new tail every 50 rows
      const std::string value = text(id);
      const SqliteTableAppender::Value rest[5] = {
          SqliteTableAppender::Integer(Wide(id / 50)),
          SqliteTableAppender::Text("void**", 6),
          SqliteTableAppender::Text("ptr", 3),
          SqliteTableAppender::Text(value.data(), value.size()),
          SqliteTableAppender::Text("{\"stream_id\":7}", 15)};
      appender->EncodeTail(rest, 5, &tail);
    }
    appender->AppendWithTail(0, id, Wide(id), tail);
    if (id % 997 == 0) {
      ASSERT_TRUE(appender->Flush(&error)) << error;
    }
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
  auto rows = Rows(db,
                   "SELECT id, event_id, position, type, name, value, "
                   "extdata FROM rocpd_arg ORDER BY id");
  ASSERT_EQ(static_cast<int64_t>(rows.size()), n);
  for (int64_t i = 1; i <= n; ++i) {
    const int64_t first = (i - 1) / 50 * 50 + 1;  // the row its tail came from
    const std::vector<std::string> want = {std::to_string(i),
                                           std::to_string(Wide(i)),
                                           std::to_string(Wide(first / 50)),
                                           "void**",
                                           "ptr",
                                           text(first),
                                           "{\"stream_id\":7}"};
    ASSERT_EQ(rows[static_cast<size_t>(i - 1)], want) << "arg " << i;
  }
  sqlite3_close(db);
}

// One tail for many rows whose first values grow with their rowids (a
// repeated call's argument rows): the cells made again from the last one
// (rowid and first value written over) as the rowid's varint and the
// first value's width grow.
TEST(SqliteTableAppender, OneTailForManyRows) {
  Database d(4096);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  SqliteTableAppender::RowTail tail;
  const SqliteTableAppender::Value rest[4] = {
      SqliteTableAppender::Integer(0),
      SqliteTableAppender::Text("hipError_t", 10),
      SqliteTableAppender::Text("hipError", 8),
      SqliteTableAppender::Text("hipSuccess", 10)};
  appender->EncodeTail(rest, 4, &tail);
  const int64_t n = 40000;
  for (int64_t id = 1; id <= n; ++id) {
    appender->AppendWithTail(0, id, id / 2, tail);
    if (id % 9973 == 0) {
      ASSERT_TRUE(appender->Flush(&error)) << error;
    }
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(One(db,
                "SELECT count(*) FROM rocpd_arg WHERE event_id = id / 2 AND "
                "position = 0 AND type = 'hipError_t' AND name = 'hipError' "
                "AND value = 'hipSuccess'"),
            std::to_string(n));
  sqlite3_close(db);
}

// The inline repeat of a tail's last cell (AppendWithTailInline, falling
// back to AppendWithTail as the rocpd writer does) writes the file
// AppendWithTail alone writes, byte for byte: first values of every width
// and both signs (the last cell's first value written over in place, or
// the cell made anew when its width changes), rowids whose varint grows,
// cells of several lengths (tails with short and long values, the copy's
// 16-byte words below the cell), leaves filled to their end, flushes.
TEST(SqliteTableAppender, InlineTailRowsAreTheFileAppendWithTailWrites) {
  std::string files[2];
  int64_t inline_rows = 0;
  for (int inline_first = 0; inline_first < 2; ++inline_first) {
    Database d(1024);
    std::string error;
    auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
    ASSERT_NE(appender, nullptr) << error;
    SqliteTableAppender::RowTail tail;
    std::string value;
    for (int64_t id = 1; id <= 20000; ++id) {
      if (id % 2500 == 1) {  // values of 0 to 105 bytes: cells up to 128
        value.assign(static_cast<size_t>(id / 2500 * 15), 'v');
        const SqliteTableAppender::Value rest[4] = {
            SqliteTableAppender::Integer(id / 2500),
            SqliteTableAppender::Text("hipError_t", 10),
            SqliteTableAppender::Text("hipError", 8),
            SqliteTableAppender::Text(value.data(), value.size())};
        appender->EncodeTail(rest, 4, &tail);
      }
      // Runs of one width, then another: both of AppendWithTail's paths.
      const int64_t first = id % 64 < 40 ? id / 2 : Wide(id / 64);
      if (inline_first == 0 ||
          !appender->AppendWithTailInline(0, id, first, tail)) {
        appender->AppendWithTail(0, id, first, tail);
      } else {
        ++inline_rows;
      }
      if (id % 4999 == 0) {
        ASSERT_TRUE(appender->Flush(&error)) << error;
      }
    }
    ASSERT_TRUE(appender->Flush(&error)) << error;
    appender.reset();
    sqlite3* db = nullptr;
    ASSERT_EQ(
        sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
        SQLITE_OK);
    EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(One(db, "SELECT count(*) FROM rocpd_arg"), "20000");
    sqlite3_close(db);
    std::ifstream in(d.path, std::ios::binary);
    files[inline_first].assign(std::istreambuf_iterator<char>(in), {});
  }
  EXPECT_GT(inline_rows, 15000);  // most rows took the inline path
  ASSERT_EQ(files[0].size(), files[1].size());
  EXPECT_TRUE(files[0] == files[1]);
}

// A repeated call's rows copied whole (AppendCallInline, falling back to
// AppendCall as the rocpd writer does: a new leaf sealed and the image
// copied there, or the image copied to the byte into a leaf's last room)
// write the file that AppendWithTail row by row writes, byte for byte:
// calls of 1 to 6 rows with one event id
// (first value) a call, ids of every width from 0 up (the image made again
// when its serial type changes) and negative ones, rowids whose varint
// grows within and between calls, leaves filled to their end, flushes.
TEST(SqliteTableAppender, CallImageRowsAreTheFileAppendWithTailWrites) {
  std::string files[2];
  int64_t copied_calls = 0;
  for (int whole = 0; whole < 2; ++whole) {
    Database d(1024);
    std::string error;
    auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
    ASSERT_NE(appender, nullptr) << error;
    std::vector<SqliteTableAppender::RowTail> tails(6);
    SqliteTableAppender::CallImage image;
    std::string value;
    size_t rows = 0;
    int64_t id = 1;
    for (int64_t call = 0; call < 12000; ++call) {
      if (call % 1500 == 0) {  // another call: 1 to 6 rows, other values
        rows = static_cast<size_t>(call / 1500 % 6 + 1);
        for (size_t i = 0; i < rows; ++i) {
          value.assign(static_cast<size_t>(call / 1500 * 7 + i), 'v');
          const SqliteTableAppender::Value rest[4] = {
              SqliteTableAppender::Integer(static_cast<int64_t>(i)),
              SqliteTableAppender::Text("hipError_t", 10),
              SqliteTableAppender::Text("hipError", 8),
              SqliteTableAppender::Text(value.data(), value.size())};
          appender->EncodeTail(rest, 4, &tails[i]);
        }
        image.rows = 0;
      }
      // Runs of growing ids, then of ids of every width and both signs.
      const int64_t first = call % 100 < 70 ? call : Wide(call / 100);
      if (whole == 0) {
        for (size_t i = 0; i < rows; ++i) {
          appender->AppendWithTail(0, id + static_cast<int64_t>(i), first,
                                   tails[i]);
        }
      } else if (appender->AppendCallInline(0, id, first, image)) {
        ++copied_calls;
      } else {
        appender->AppendCall(0, id, first, tails.data(), rows, &image);
      }
      id += static_cast<int64_t>(rows);
      if (call % 2999 == 0) {
        ASSERT_TRUE(appender->Flush(&error)) << error;
      }
    }
    ASSERT_TRUE(appender->Flush(&error)) << error;
    appender.reset();
    sqlite3* db = nullptr;
    ASSERT_EQ(
        sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
        SQLITE_OK);
    EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(One(db, "SELECT count(*) FROM rocpd_arg"),
              std::to_string(id - 1));
    sqlite3_close(db);
    std::ifstream in(d.path, std::ios::binary);
    files[whole].assign(std::istreambuf_iterator<char>(in), {});
  }
  // Most calls were copied whole (not those of more than the image's bytes,
  // at a leaf's end, or whose id's width changed).
  EXPECT_GT(copied_calls, 5000);
  ASSERT_EQ(files[0].size(), files[1].size());
  EXPECT_TRUE(files[0] == files[1]);
}

// Rows appended around an encoded middle (EncodeTail of position, type and
// name once, AppendAroundMiddle for each first value of every width, both
// signs, and each last text) read back as the rows AppendRow writes: last
// texts of every length a row may hold (1- and 2-byte serial types), middle
// integers of every width, a long type text.
TEST(SqliteTableAppender, MiddleRowsReadBackExactly) {
  Database d(1024);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  auto text = [](int64_t i) {
    std::string s;
    for (int64_t k = 0; k < i % 700; ++k) s += static_cast<char>('a' + k % 26);
    return s;
  };
  auto type = [](int64_t i) {
    return i % 3 == 0 ? std::string(40 + i % 60, 't') : std::string("void*");
  };
  const int64_t n = 3000;
  SqliteTableAppender::RowTail middle;
  for (int64_t id = 1; id <= n; ++id) {
    const int64_t m = (id - 1) / 30;  // a new middle every 30 rows
    if ((id - 1) % 30 == 0) {
      const std::string t = type(m);
      const SqliteTableAppender::Value cells[3] = {
          SqliteTableAppender::Integer(Wide(m)),
          SqliteTableAppender::Text(t.data(), t.size()),
          SqliteTableAppender::Text("dst", 3)};
      appender->EncodeTail(cells, 3, &middle);
    }
    const std::string value = text(id * 7);
    appender->AppendAroundMiddle(0, id, Wide(id), middle, value.data(),
                                 value.size());
    if (id % 997 == 0) {
      ASSERT_TRUE(appender->Flush(&error)) << error;
    }
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
  auto rows = Rows(db,
                   "SELECT id, event_id, position, type, name, value, "
                   "typeof(value), extdata FROM rocpd_arg ORDER BY id");
  ASSERT_EQ(static_cast<int64_t>(rows.size()), n);
  for (int64_t i = 1; i <= n; ++i) {
    const int64_t m = (i - 1) / 30;
    const std::vector<std::string> want = {std::to_string(i),
                                           std::to_string(Wide(i)),
                                           std::to_string(Wide(m)),
                                           type(m),
                                           "dst",
                                           text(i * 7),
                                           "text",
                                           "{}"};
    ASSERT_EQ(rows[static_cast<size_t>(i - 1)], want) << "arg " << i;
  }
  sqlite3_close(db);
}

// The common argument row (a short value, a short middle) as the rocpd
// writer appends it: several rows a first value (a call's arguments share
// its event id), first values of every width and both signs, 0 and 1
// included (no bytes with small integers); values of 0 to 60 bytes (56 the
// longest with a 1-byte serial type); middles whose values take 0 to 48
// bytes and one that takes more; pages of several sizes, so rows meet every
// leaf's end. They read back as written.
TEST(SqliteTableAppender, ShortMiddleRowsReadBackExactly) {
  for (int page_size : {512, 1024, 4096}) {
    Database d(page_size);
    std::string error;
    auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
    ASSERT_NE(appender, nullptr) << error;
    const std::vector<std::string> types = {
        "", "int", "void*", std::string(40, 't'), std::string(50, 'u')};
    const int64_t kMiddles = 12;
    std::vector<SqliteTableAppender::RowTail> middles(kMiddles);
    for (int64_t m = 0; m < kMiddles; ++m) {
      const std::string& t = types[static_cast<size_t>(m) % types.size()];
      const SqliteTableAppender::Value cells[3] = {
          SqliteTableAppender::Integer(Wide(m)),
          SqliteTableAppender::Text(t.data(), t.size()),
          SqliteTableAppender::Text("dst", 3)};
      appender->EncodeTail(cells, 3, &middles[static_cast<size_t>(m)]);
    }
    const std::string letters(64, 'v');
    const int64_t n = 6000;
    for (int64_t id = 1; id <= n; ++id) {
      const size_t len = static_cast<size_t>(id * 7 % 61);
      appender->AppendAroundMiddle(0, id, Wide(id / 4),
                                   middles[static_cast<size_t>(id % kMiddles)],
                                   letters.data(), len);
      if (id % 1999 == 0) {
        ASSERT_TRUE(appender->Flush(&error)) << error;
      }
    }
    ASSERT_TRUE(appender->Flush(&error)) << error;
    sqlite3* db = nullptr;
    ASSERT_EQ(
        sqlite3_open_v2(d.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
        SQLITE_OK);
    EXPECT_EQ(One(db, "PRAGMA integrity_check"), "ok");
    auto rows = Rows(db,
                     "SELECT id, event_id, position, type, name, value, "
                     "typeof(value), extdata FROM rocpd_arg ORDER BY id");
    ASSERT_EQ(static_cast<int64_t>(rows.size()), n);
    for (int64_t i = 1; i <= n; ++i) {
      const int64_t m = i % kMiddles;
      const std::vector<std::string> want = {
          std::to_string(i),
          std::to_string(Wide(i / 4)),
          std::to_string(Wide(m)),
          types[static_cast<size_t>(m) % types.size()],
          "dst",
          letters.substr(0, static_cast<size_t>(i * 7 % 61)),
          "text",
          "{}"};
      ASSERT_EQ(rows[static_cast<size_t>(i - 1)], want)
          << "page " << page_size << " arg " << i;
    }
    sqlite3_close(db);
  }
}

// A row longer than a page holds without overflow pages is an error at
// Flush, which then publishes nothing (as for a row out of order).
TEST(SqliteTableAppender, TextRowLongerThanAPageIsAnError) {
  Database d(1024);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  const std::string fits(900, 'x'), too_long(1000, 'y');
  for (const std::string* value : {&fits, &too_long}) {
    const SqliteTableAppender::Value row[5] = {
        SqliteTableAppender::Integer(1), SqliteTableAppender::Integer(0),
        SqliteTableAppender::Text("int", 3), SqliteTableAppender::Text("n", 1),
        SqliteTableAppender::Text(value->data(), value->size())};
    appender->AppendRow(0, value == &fits ? 1 : 2, row, 5);
  }
  EXPECT_FALSE(appender->Flush(&error));
  EXPECT_NE(error.find("more than a page holds"), std::string::npos) << error;
  EXPECT_EQ(One(d.db, "SELECT count(*) FROM rocpd_arg"), "0");
}

// On 64 KiB pages a row may hold a text longer than 2^13 bytes: its
// serial type and the record's size are then 3-byte varints. Rows of every
// length up to that read back exactly, in leaves left with any free space.
TEST(SqliteTableAppender, LongTextsOnLargePagesReadBackExactly) {
  Database d(65536);
  std::string error;
  auto appender = SqliteTableAppender::Open(d.db, {{"rocpd_arg", 5}}, &error);
  ASSERT_NE(appender, nullptr) << error;
  auto text = [](int64_t i) {
    return std::string(static_cast<size_t>(i * 977 % 30011),
                       static_cast<char>('a' + i % 26));
  };
  const int64_t n = 60;
  for (int64_t id = 1; id <= n; ++id) {
    const std::string value = text(id);
    const SqliteTableAppender::Value row[5] = {
        SqliteTableAppender::Integer(id * 1000003),
        SqliteTableAppender::Integer(id % 3),
        SqliteTableAppender::Text("size_t", 6),
        SqliteTableAppender::Text("sizeBytes", 9),
        SqliteTableAppender::Text(value.data(), value.size())};
    appender->AppendRow<0b11100>(0, id, row);
  }
  ASSERT_TRUE(appender->Flush(&error)) << error;
  EXPECT_EQ(One(d.db, "PRAGMA integrity_check"), "ok");
  auto rows = Rows(d.db,
                   "SELECT id, event_id, position, type, name, value FROM "
                   "rocpd_arg ORDER BY id");
  ASSERT_EQ(static_cast<int64_t>(rows.size()), n);
  for (int64_t i = 1; i <= n; ++i) {
    const std::vector<std::string> want = {
        std::to_string(i),     std::to_string(i * 1000003),
        std::to_string(i % 3), "size_t",
        "sizeBytes",           text(i)};
    ASSERT_EQ(rows[static_cast<size_t>(i - 1)], want) << "arg " << i;
  }
}

TEST(SqliteTableAppender, WalIsRefused) {
  Database d(4096);
  Exec(d.db, "PRAGMA journal_mode=WAL");
  std::string error;
  EXPECT_EQ(SqliteTableAppender::Open(d.db, {{"rocpd_event", 4}}, &error),
            nullptr);
  EXPECT_NE(error.find("rollback journal"), std::string::npos) << error;
}

}  // namespace
}  // namespace roctrace
