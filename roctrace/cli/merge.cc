#include "roctrace/cli/merge.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "roctrace/cli/clock_alignment.h"
#include "roctrace/writers/rocpd_schema.h"

namespace roctrace {
namespace {

const char kMergeUsage[] =
    "usage: roctrace merge -o OUTPUT.db INPUT.db [INPUT.db...]\n";

bool Exec(sqlite3* db, const std::string& sql, const std::string& context) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::fprintf(stderr, "roctrace merge: %s: %s\n", context.c_str(),
                 err != nullptr ? err : "error");
    sqlite3_free(err);
    return false;
  }
  return true;
}

std::string Quote(const std::string& name) { return "\"" + name + "\""; }

// The attached database's process GUID (rocpd_metadata 'guid'); empty when
// it has none.
std::string Guid(sqlite3* db) {
  sqlite3_stmt* st = nullptr;
  std::string guid;
  if (sqlite3_prepare_v2(db,
                         "SELECT value FROM src.rocpd_metadata WHERE tag = "
                         "'guid'",
                         -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != nullptr) {
    guid = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  }
  sqlite3_finalize(st);
  return guid;
}

// The table suffix of a process whose GUID is `guid`, as rocprofv3 makes
// it: '_' then the GUID with every character other than a letter or digit
// made '_' (a UUID's '-').
std::string UuidSuffix(const std::string& guid) {
  std::string suffix = "_";
  for (char c : guid) {
    bool plain = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                 (c >= 'A' && c <= 'Z');
    suffix += plain ? c : '_';
  }
  return suffix;
}

}  // namespace

int RunMerge(const std::vector<std::string>& args) {
  std::string output;
  std::vector<std::string> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" || args[i] == "--output-file") {
      if (i + 1 == args.size()) {
        std::fprintf(stderr, "roctrace merge: -o needs a value\n%s",
                     kMergeUsage);
        return 2;
      }
      output = args[++i];
    } else if (!args[i].empty() && args[i][0] == '-') {
      std::fprintf(stderr, "roctrace merge: unknown option '%s'\n%s",
                   args[i].c_str(), kMergeUsage);
      return 2;
    } else {
      inputs.push_back(args[i]);
    }
  }
  if (output.empty() || inputs.empty()) {
    std::fprintf(stderr, "roctrace merge: %s\n%s",
                 output.empty() ? "no output (-o)" : "no input database",
                 kMergeUsage);
    return 2;
  }
  for (const std::string& in : inputs) {
    if (access(in.c_str(), R_OK) != 0) {
      std::fprintf(stderr, "roctrace merge: cannot read %s\n", in.c_str());
      return 1;
    }
  }
  if (access(output.c_str(), F_OK) == 0) {
    std::fprintf(stderr, "roctrace merge: %s exists; not overwriting it\n",
                 output.c_str());
    return 1;
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(output.c_str(), &db) != SQLITE_OK) {
    std::fprintf(stderr, "roctrace merge: cannot create %s: %s\n",
                 output.c_str(), sqlite3_errmsg(db));
    sqlite3_close(db);
    return 1;
  }
  bool ok = Exec(db, "BEGIN", output);
  std::vector<std::string> suffixes;
  std::vector<std::string> guids;  // by input
  size_t aligned = 0;              // inputs put on MPI rank 0's clock
  uint64_t uncertainty_ns = 0;     // the largest of theirs
  for (size_t i = 0; ok && i < inputs.size(); ++i) {
    const std::string& in = inputs[i];
    char* attach = sqlite3_mprintf("ATTACH %Q AS src", in.c_str());
    // ATTACH cannot run inside a transaction.
    ok = Exec(db, "COMMIT", output) && Exec(db, attach, in) &&
         Exec(db, "BEGIN", output);
    sqlite3_free(attach);
    if (!ok) break;
    // A rocpd database has every table; anything else is refused by name.
    sqlite3_stmt* check = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT COUNT(*) FROM src.sqlite_master WHERE type = "
                       "'table' AND name = 'rocpd_region'",
                       -1, &check, nullptr);
    bool is_rocpd = check != nullptr && sqlite3_step(check) == SQLITE_ROW &&
                    sqlite3_column_int(check, 0) == 1;
    sqlite3_finalize(check);
    if (!is_rocpd) {
      std::fprintf(stderr, "roctrace merge: %s is not a rocpd database\n",
                   in.c_str());
      ok = false;
      break;
    }
    // Every process's database has a GUID of its own: the same one twice
    // (the same file, or a copy) would count its rows twice.
    std::string guid = Guid(db);
    for (size_t j = 0; j < guids.size(); ++j) {
      if (!guid.empty() && guids[j] == guid) {
        std::fprintf(stderr,
                     "roctrace merge: %s and %s are the same process's "
                     "database (guid %s); give each once\n",
                     inputs[j].c_str(), in.c_str(), guid.c_str());
        ok = false;
      }
    }
    guids.push_back(guid);
    if (!ok) break;
    // rocprofv3's naming: each process's tables carry the suffix
    // `_<uuid>` (its GUID with '_' for '-') and its rocpd_metadata row
    // 'uuid' holds that suffix. rocpd's readers find a database's tables by
    // that value (the table names containing it, the suffix taken off, give
    // the view names), so a suffix not recorded there leaves its views
    // defined on themselves.
    std::string suffix = UuidSuffix(guid.empty() ? std::to_string(i) : guid);
    for (const std::string& s : suffixes) {
      if (s == suffix) suffix += "_" + std::to_string(i);
    }
    suffixes.push_back(suffix);
    for (const std::string& t : RocpdTableNames()) {
      ok = ok && Exec(db,
                      "CREATE TABLE " + Quote(t + suffix) +
                          " AS SELECT * FROM src." + Quote(t),
                      in + ": " + t);
    }
    // An MPI rank's timestamps onto rank 0's clock (clock_alignment.h).
    ClockAlignment clock;
    std::string clock_error;
    if (ok && !AlignClock(db, suffix, &clock, &clock_error)) {
      std::fprintf(stderr, "roctrace merge: %s: clock offsets: %s\n",
                   in.c_str(), clock_error.c_str());
      ok = false;
    }
    if (clock.measured) {
      ++aligned;
      if (clock.uncertainty_ns > uncertainty_ns) {
        uncertainty_ns = clock.uncertainty_ns;
      }
    }
    const std::string meta = Quote("rocpd_metadata" + suffix);
    char* tag = sqlite3_mprintf(
        "UPDATE %s SET value = %Q WHERE tag = 'uuid';"
        "INSERT INTO %s(id, tag, value) SELECT (SELECT COALESCE(MAX(id), 0) "
        "+ 1 FROM %s), 'uuid', %Q WHERE NOT EXISTS (SELECT 1 FROM %s WHERE "
        "tag = 'uuid')",
        meta.c_str(), suffix.c_str(), meta.c_str(), meta.c_str(),
        suffix.c_str(), meta.c_str());
    ok = ok && Exec(db, tag, in);
    sqlite3_free(tag);
    ok = ok && Exec(db, "COMMIT", output) && Exec(db, "DETACH src", in) &&
         Exec(db, "BEGIN", output);
  }
  if (ok) {
    for (const std::string& t : RocpdTableNames()) {
      std::string sql = "CREATE VIEW " + Quote(t) + " AS ";
      for (size_t i = 0; i < suffixes.size(); ++i) {
        if (i != 0) sql += " UNION ALL ";
        sql += "SELECT * FROM " + Quote(t + suffixes[i]);
      }
      ok = ok && Exec(db, sql, output);
    }
    ok = ok && Exec(db, RocpdViewsSql(), output) && Exec(db, "COMMIT", output);
  }
  sqlite3_close(db);
  if (!ok) {
    std::remove(output.c_str());
    return 1;
  }
  std::fprintf(stderr, "roctrace merge: %zu databases -> %s\n", inputs.size(),
               output.c_str());
  if (aligned != 0) {
    std::fprintf(stderr,
                 "roctrace merge: %zu MPI ranks put on rank 0's clock (to "
                 "within %llu ns)\n",
                 aligned, static_cast<unsigned long long>(uncertainty_ns));
  }
  return 0;
}

}  // namespace roctrace
