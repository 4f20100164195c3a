#include "roctrace/cli/clock_alignment.h"

#include <cstdlib>
#include <map>
#include <vector>

#include "roctrace/writers/rocpd_schema.h"

namespace roctrace {
namespace {

std::string Quote(const std::string& name) { return "\"" + name + "\""; }

bool Query(sqlite3* db, const std::string& sql,
           std::vector<std::vector<std::string>>* rows, std::string* error) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    *error = sqlite3_errmsg(db);
    return false;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const unsigned char* text = sqlite3_column_text(st, c);
      row.push_back(text != nullptr ? reinterpret_cast<const char*>(text) : "");
    }
    rows->push_back(std::move(row));
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) {
    *error = sqlite3_errmsg(db);
    return false;
  }
  return true;
}

bool Exec(sqlite3* db, const std::string& sql, std::string* error) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    *error = err != nullptr ? err : "error";
    sqlite3_free(err);
    return false;
  }
  return true;
}

bool IsTimeColumn(const std::string& c) {
  return c == "start" || c == "end" || c == "timestamp" || c == "init" ||
         c == "fini";
}

}  // namespace

bool AlignClock(sqlite3* db, const std::string& suffix, ClockAlignment* out,
                std::string* error) {
  *out = ClockAlignment();
  const std::string metadata = Quote("rocpd_metadata" + suffix);
  std::vector<std::vector<std::string>> rows;
  if (!Query(db,
             "SELECT tag, value FROM " + metadata +
                 " WHERE tag LIKE 'roctrace.clock.%'",
             &rows, error)) {
    return false;
  }
  std::map<std::string, std::string> tags;
  for (const auto& r : rows) tags[r[0].substr(15)] = r[1];  // "roctrace.clock."
  auto number = [&tags](const std::string& key, long long* v) {
    auto it = tags.find(key);
    if (it == tags.end() || it->second.empty()) return false;
    char* end = nullptr;
    *v = std::strtoll(it->second.c_str(), &end, 10);
    return *end == '\0';
  };
  long long t1, o1, u1;
  if (!number("init_local_ns", &t1) || !number("init_offset_ns", &o1) ||
      !number("init_uncertainty_ns", &u1)) {
    return true;  // not an MPI rank, or never synchronised
  }
  // Without MPI_Finalize's measurement (a rank killed before it), the
  // MPI_Init offset holds throughout.
  long long t2 = t1, o2 = o1, u2 = u1;
  if (!number("finalize_local_ns", &t2) || !number("finalize_offset_ns", &o2) ||
      !number("finalize_uncertainty_ns", &u2) || t2 <= t1) {
    t2 = t1;
    o2 = o1;
    u2 = u1;
  }
  out->measured = true;
  out->init_offset_ns = o1;
  out->finalize_offset_ns = o2;
  out->uncertainty_ns = static_cast<uint64_t>(u1 > u2 ? u1 : u2);
  const std::string T1 = std::to_string(t1), T2 = std::to_string(t2),
                    O1 = std::to_string(o1), O2 = std::to_string(o2);
  for (const std::string& table : RocpdTableNames()) {
    const std::string name = Quote(table + suffix);
    std::vector<std::vector<std::string>> columns;
    if (!Query(db, "PRAGMA table_info(" + name + ")", &columns, error)) {
      return false;
    }
    std::string set;
    for (const auto& c : columns) {
      if (!IsTimeColumn(c[1])) continue;
      const std::string col = Quote(c[1]);
      const std::string offset =
          t2 == t1
              ? O1
              : "CASE WHEN " + col + " <= " + T1 + " THEN " + O1 + " WHEN " +
                    col + " >= " + T2 + " THEN " + O2 + " ELSE CAST(" + O1 +
                    " + (" + O2 + " - " + O1 + ") * CAST(" + col + " - " + T1 +
                    " AS REAL) / (" + T2 + " - " + T1 + ") AS INTEGER) END";
      if (!set.empty()) set += ", ";
      set += col + " = " + col + " + " + offset;
    }
    if (!set.empty() && !Exec(db, "UPDATE " + name + " SET " + set, error)) {
      return false;
    }
  }
  const std::string applied =
      o1 == o2 ? O1 : O1 + " at MPI_Init, " + O2 + " at MPI_Finalize";
  return Exec(db,
              "INSERT INTO " + metadata +
                  "(tag, value) VALUES ('roctrace.merge.clock_offset_ns', '" +
                  applied + "'), ('roctrace.merge.clock_uncertainty_ns', '" +
                  std::to_string(out->uncertainty_ns) + "')",
              error);
}

}  // namespace roctrace
