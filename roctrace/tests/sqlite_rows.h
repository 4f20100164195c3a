// A query's rows read back from a database file, each row its columns' text
// joined by '|' (NULL for a NULL): what a test compares with what it wrote.
#ifndef ROCTRACE_TESTS_SQLITE_ROWS_H_
#define ROCTRACE_TESTS_SQLITE_ROWS_H_

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

namespace roctrace {

inline std::vector<std::string> SqliteRows(const std::string& path,
                                           const char* sql) {
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

}  // namespace roctrace

#endif  // ROCTRACE_TESTS_SQLITE_ROWS_H_
