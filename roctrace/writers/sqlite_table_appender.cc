#include "roctrace/writers/sqlite_table_appender.h"

#include <strings.h>
#include <sys/uio.h>

#include <algorithm>
#include <cstring>

#include "roctrace/writers/fd_safe_vfs.h"
#include "roctrace/writers/sqlite_appender_tree.h"
#include "roctrace/writers/sqlite_file_format.h"

// Opening (the database's requirements checked, each table's tree set up)
// and publishing (Flush: the trees' pages written under SQLite's lock).
// The rows' cells are made in sqlite_leaf_cells.cc, the pages above the
// leaves in sqlite_btree_path.cc.
namespace roctrace {

using sqlite_format::Get2;
using sqlite_format::Get4;
using sqlite_format::kTableLeaf;
using sqlite_format::Put4;

SqliteTableAppender::~SqliteTableAppender() = default;

std::unique_ptr<SqliteTableAppender> SqliteTableAppender::Open(
    sqlite3* db, const std::vector<Table>& tables, std::string* error) {
  std::unique_ptr<SqliteTableAppender> a(new SqliteTableAppender);
  a->db_ = db;
  a->flush_ = std::make_unique<FlushState>();
  auto text = [db](const char* sql) {
    std::string out;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    return out;
  };
  // Pages written past SQLite would be lost to a WAL reader or clash with an
  // auto-vacuum's page moves; a mapping could show SQLite stale pages.
  if (strcasecmp(text("PRAGMA journal_mode").c_str(), "wal") == 0 ||
      text("PRAGMA auto_vacuum") != "0" ||
      strcasecmp(text("PRAGMA locking_mode").c_str(), "normal") != 0) {
    *error = "needs a rollback journal, no auto_vacuum, locking_mode=NORMAL";
    return nullptr;
  }
  if (!a->Exec("PRAGMA mmap_size=0", error)) return nullptr;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &a->file_) !=
          SQLITE_OK ||
      a->file_ == nullptr || a->file_->pMethods == nullptr) {
    *error = "no database file";
    return nullptr;
  }
  a->header_.resize(100);
  if (!a->ReadAt(a->header_.data(), 100, 0)) {
    *error = "cannot read the database header";
    return nullptr;
  }
  const uint32_t page_size = Get2(&a->header_[16]);
  a->page_size_ = page_size == 1 ? 65536 : page_size;
  a->usable_ = a->page_size_ - a->header_[20];
  a->row_spill_.resize(a->page_size_ + 16);
  // The schema format number: a 4-byte big-endian integer.
  a->small_ints_ = sqlite_format::Get4(&a->header_[44]) >= 4;
  a->file_pages_ = Get4(&a->header_[28]);
  if (tables.size() > kMaxTables) {
    *error = "more than " + std::to_string(kMaxTables) + " tables";
    return nullptr;
  }
  for (const Table& table : tables) {
    auto t = std::make_unique<Tree>();
    t->name = table.name;
    t->columns = table.columns;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT rootpage FROM sqlite_schema WHERE type = "
                       "'table' AND name = ?",
                       -1, &st, nullptr);
    sqlite3_bind_text(st, 1, table.name.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) {
      t->root = static_cast<uint32_t>(sqlite3_column_int64(st, 0));
    }
    sqlite3_finalize(st);
    if (t->root < 2) {
      *error = "no table " + table.name;
      return nullptr;
    }
    // The stored columns (virtual generated ones are not in the record):
    // an INTEGER PRIMARY KEY first, then the appended ones, then only
    // columns SQLite can fill in for a short record.
    sqlite3_prepare_v2(db,
                       "SELECT type, pk, hidden, dflt_value, \"notnull\" "
                       "FROM pragma_table_xinfo(?) WHERE hidden != 2",
                       -1, &st, nullptr);
    sqlite3_bind_text(st, 1, table.name.c_str(), -1, SQLITE_TRANSIENT);
    size_t column = 0;
    bool fits = table.columns >= 1 && table.columns <= kMaxColumns;
    while (fits && sqlite3_step(st) == SQLITE_ROW) {
      const char* type =
          reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
      const bool pk = sqlite3_column_int(st, 1) != 0;
      if (sqlite3_column_int(st, 2) != 0 || pk != (column == 0) ||
          (column == 0 && strcasecmp(type ? type : "", "INTEGER") != 0) ||
          (column > table.columns &&
           sqlite3_column_type(st, 3) == SQLITE_NULL &&
           sqlite3_column_int(st, 4) != 0)) {
        fits = false;
      }
      ++column;
    }
    sqlite3_finalize(st);
    t->stored_columns = column - 1;
    if (!fits || column < table.columns + 1) {
      *error = "table " + table.name +
               " does not take rows of an INTEGER PRIMARY KEY and " +
               std::to_string(table.columns) + " values";
      return nullptr;
    }
    // Larger payloads would spill into overflow pages.
    if (2 + 9 * table.columns > a->usable_ - 35) {
      *error = "rows of table " + table.name + " may not fit in a page";
      return nullptr;
    }
    const int64_t zeros[kMaxColumns] = {};
    a->SetLayout(t->layout, zeros, table.columns);
    t->leaf = t->Slot(0, a->page_size_);
    std::memset(t->leaf, 0, a->page_size_);
    t->leaf[0] = kTableLeaf;
    t->leaf_content = a->usable_;
    t->leaf_pgno = t->root;
    a->tree_at_[a->trees_.size()] = t.get();
    a->trees_.push_back(std::move(t));
  }
  return a;
}

bool SqliteTableAppender::Exec(const char* sql, std::string* error) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
    *error = std::string(sql) + ": " + sqlite3_errmsg(db_);
    return false;
  }
  return true;
}

bool SqliteTableAppender::ReadAt(void* buf, size_t size, int64_t offset) {
  return file_->pMethods->xRead(file_, buf, static_cast<int>(size), offset) ==
         SQLITE_OK;
}

// In pieces of at most max_write_: SQLite's unix VFS writes at most 128 KiB
// a call (it masks the size with 0x1ffff).
bool SqliteTableAppender::WriteAt(const void* buf, size_t size,
                                  int64_t offset) {
  const uint8_t* p = static_cast<const uint8_t*>(buf);
  for (size_t at = 0; at < size; at += max_write_) {
    const size_t n = std::min(max_write_, size - at);
    if (file_->pMethods->xWrite(file_, p + at, static_cast<int>(n),
                                offset + static_cast<int64_t>(at)) !=
        SQLITE_OK) {
      return false;
    }
  }
  return true;
}

bool SqliteTableAppender::Flush(std::string* error) {
  if (!error_.empty()) {
    *error = error_;
    return false;
  }
  bool any = false;
  for (const auto& t : trees_) {
    any = any || t->leaf_dirty || !t->sealed_leaves.empty();
  }
  if (!any) return true;
  // SQLite's exclusive lock keeps readers out while the trees change, and
  // SQLite's own file handle keeps its POSIX locks (closing another
  // descriptor of the file would drop them).
  if (!Exec("BEGIN EXCLUSIVE", error)) return false;
  bool ok = ReadAt(header_.data(), 100, 0);
  for (const auto& t : trees_) {
    if (!ok || t->checked) continue;
    std::vector<uint8_t> page(page_size_);
    ok = ReadAt(page.data(), page_size_, int64_t{t->root - 1} * page_size_) &&
         page[0] == kTableLeaf && Get2(&page[3]) == 0;
    if (!ok) *error = "table " + t->name + " is not empty";
    t->checked = true;
  }
  FlushState& s = *flush_;
  s.leaves.clear();
  s.fresh_pgnos.clear();
  s.fresh.clear();
  s.in_place.clear();
  s.in_place_pages.clear();
  s.freed.clear();
  buffered_ = 0;
  if (ok) {
    // The page count is the header's when the header is current (offset 92
    // equals the change counter at 24), else the file's.
    uint32_t pages = Get4(&header_[28]);
    if (pages == 0 || Get4(&header_[24]) != Get4(&header_[92])) {
      sqlite3_int64 bytes = 0;
      file_->pMethods->xFileSize(file_, &bytes);
      pages = static_cast<uint32_t>(bytes / page_size_);
    }
    s.first = s.next = pages + 1;
    for (const auto& t : trees_) ok = ok && FlushTree(*t, s);
    ok = ok && Publish(s, error);
    if (ok) file_pages_ = s.next - 1;
  }
  // Written: the right-most leaf moves to the first slot.
  for (const auto& t : trees_) {
    if (t->slots > 1) {
      std::memcpy(t->Slot(0, page_size_), t->leaf, page_size_);
      t->leaf = t->Slot(0, page_size_);
      t->slots = 1;
    }
  }
  std::string end_error;
  if (!Exec("COMMIT", &end_error) && ok) {
    *error = end_error;
    ok = false;
  }
  if (!ok && error->empty()) *error = "cannot write the database file";
  return ok;
}

bool SqliteTableAppender::FlushEndsOnMultipleOf(size_t bytes) const {
  // As FlushTree places them: each tree's filled leaves are new pages but
  // the first when it was already on disk, and the right-most leaf is new
  // when it has rows and no page yet; a root leaf that gains a sibling
  // moves to a new page.
  uint64_t pages = file_pages_;
  for (const auto& t : trees_) {
    const size_t sealed = t->sealed_leaves.size();
    const bool current = t->leaf_cells > 0;
    pages += sealed;
    if (sealed > 0 && t->sealed_leaves[0].pgno != 0) --pages;
    if (current && t->leaf_pgno == 0) ++pages;
    if (t->levels.empty() && sealed + (current ? 1 : 0) > 1 &&
        (sealed > 0 ? t->sealed_leaves[0].pgno != 0 : t->leaf_pgno != 0)) {
      ++pages;
    }
  }
  return file_pages_ != 0 && pages * page_size_ % bytes == 0;
}

// The pages past the file's end, [s.first, s.next): runs of new leaves and
// new interior pages, side by side in the file. One gathered write through
// the fd-safe VFS (the kernel fills larger page-cache folios from one write
// than from a write per run: about a quarter less system time a byte)
// when max_write_ allows, else a write per run.
bool SqliteTableAppender::WriteNewPages(FlushState& s) {
  std::vector<FlushState::Run>& pieces = s.pieces;
  pieces.assign(s.leaves.begin(), s.leaves.end());
  for (size_t i = 0; i < s.fresh_pgnos.size(); ++i) {
    pieces.push_back({s.fresh_pgnos[i], &s.fresh[i * page_size_], 1});
  }
  std::sort(pieces.begin(), pieces.end(),
            [](const FlushState::Run& a, const FlushState::Run& b) {
              return a.pgno < b.pgno;
            });
  std::vector<iovec>& iov = s.iov;
  iov.clear();
  uint32_t expected = s.first;
  bool contiguous = true;
  for (const FlushState::Run& p : pieces) {
    contiguous = contiguous && p.pgno == expected;
    expected = static_cast<uint32_t>(p.pgno + p.pages);
    const size_t bytes = p.pages * page_size_;
    if (!iov.empty() &&
        static_cast<const uint8_t*>(iov.back().iov_base) + iov.back().iov_len ==
            p.data) {
      iov.back().iov_len += bytes;
    } else {
      iov.push_back({const_cast<uint8_t*>(p.data), bytes});
    }
  }
  if (pieces.empty()) return true;
  if (contiguous && expected == s.next &&
      size_t{s.next - s.first} * page_size_ <= max_write_) {
    const int rc =
        FdSafeVfsWriteGathered(file_, iov.data(), static_cast<int>(iov.size()),
                               int64_t{s.first - 1} * page_size_);
    if (rc != SQLITE_NOTFOUND) return rc == SQLITE_OK;
  }
  bool ok = true;
  for (const FlushState::Run& p : pieces) {
    ok = ok && WriteAt(p.data, p.pages * page_size_,
                       int64_t{p.pgno - 1} * page_size_);
  }
  return ok;
}

// The writes, in the order that keeps every instant's file a valid
// database: pages past the end, the header's page count, pages in place
// (each a single write), then freed pages onto SQLite's freelist.
bool SqliteTableAppender::Publish(FlushState& s, std::string* error) {
  auto header = [&]() {
    const uint32_t counter = Get4(&header_[24]) + 1;
    Put4(&header_[24], counter);
    Put4(&header_[92], counter);
    Put4(&header_[96], SQLITE_VERSION_NUMBER);
    return WriteAt(header_.data(), 100, 0);
  };
  bool ok = WriteNewPages(s);
  Put4(&header_[28], s.next - 1);
  ok = ok && header();
  for (size_t i = 0; ok && i < s.in_place.size(); ++i) {
    ok = WriteAt(&s.in_place_pages[i * page_size_], page_size_,
                 int64_t{s.in_place[i] - 1} * page_size_);
  }
  if (ok && !s.freed.empty()) {
    // Each freed page a freelist trunk without leaves, at the list's head.
    std::vector<uint8_t> trunk(page_size_, 0);
    uint32_t head = Get4(&header_[32]);
    uint32_t count = Get4(&header_[36]);
    for (uint32_t pgno : s.freed) {
      Put4(&trunk[0], head);
      ok = ok &&
           WriteAt(trunk.data(), page_size_, int64_t{pgno - 1} * page_size_);
      head = pgno;
      ++count;
    }
    Put4(&header_[32], head);
    Put4(&header_[36], count);
    ok = ok && header();
  }
  if (!ok) *error = "cannot write the database file";
  return ok;
}

}  // namespace roctrace
