#include "roctrace/writers/sqlite_table_appender.h"

#include <strings.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace roctrace {
namespace {

// Layout facts of SQLite's file format
// (https://www.sqlite.org/fileformat2.html).
constexpr uint8_t kTableLeaf = 0x0D;
constexpr uint8_t kTableInterior = 0x05;
constexpr size_t kLeafHeader = 8;
constexpr size_t kInteriorHeader = 12;
constexpr size_t kMaxColumns = SqliteTableAppender::kMaxColumns;

uint32_t Get2(const uint8_t* p) { return uint32_t{p[0]} << 8 | p[1]; }
uint32_t Get4(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 |
         p[3];
}
void Put2(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
void Put4(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

size_t VarintLen(uint64_t v) {
  const size_t bits = 64 - static_cast<size_t>(__builtin_clzll(v | 1));
  return bits > 56 ? 9 : (bits + 6) / 7;
}

// SQLite's varint of `n` (VarintLen) bytes: big-endian groups of 7 bits,
// the 9th byte all 8.
void PutVarint(uint8_t* p, uint64_t v, size_t n) {
  size_t i = n - 1;
  if (n == 9) {
    p[8] = static_cast<uint8_t>(v);
    v >>= 8;
  } else {
    p[i] = static_cast<uint8_t>(v & 0x7f);
    v >>= 7;
  }
  while (i-- > 0) {
    p[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
    v >>= 7;
  }
}

size_t CellSize(int64_t key) {
  return 2 + 4 + VarintLen(static_cast<uint64_t>(key));
}

}  // namespace

// The last row's serial types: values in [lo, lo + span] take the same
// type as the last row's value in that column (one sign of one width, or
// 0 or 1 alone), so a row whose values all do reuses the types, sizes and
// record size without working them out.
struct SqliteTableAppender::Layout {
  uint64_t lo[kMaxColumns];
  uint64_t span[kMaxColumns];
  uint8_t size[kMaxColumns];
  uint64_t type_word;  // type i in byte i
  size_t body;
};

struct SqliteTableAppender::Tree {
  std::string name;
  size_t columns = 0;
  size_t stored_columns = 0;  // after the key: the most a row may give
  uint32_t root = 0;
  bool checked = false;  // the root read back as an empty leaf
  int64_t last_rowid = 0;
  Layout layout;
  // Rowids below rowid_next take rowid_len bytes as a varint.
  int64_t rowid_next = 0;
  size_t rowid_len = 0;
  // Leaf images, a page a slot, in chunks kept from one Flush to the next:
  // the leaves filled since the last Flush, then the right-most leaf.
  std::vector<std::unique_ptr<uint8_t[]>> chunks;
  size_t slots = 1;
  // The right-most leaf: its image (the last slot), page (0 until placed),
  // cells, the offset of its lowest cell, whether it changed since written.
  uint8_t* leaf = nullptr;
  uint32_t leaf_pgno = 0;
  bool leaf_dirty = false;
  uint32_t leaf_cells = 0;
  uint32_t leaf_content = 0;
  int64_t leaf_max = 0;
  // The filled leaves' pages and largest rowids; the first may be the one
  // already on disk (its page number, dirty or not), the others are new.
  std::vector<Child> sealed_leaves;
  bool first_sealed_dirty = false;
  // The right-most page of each interior level, leaves' parents first, the
  // root last: the rest of the tree is full and never changes.
  struct Level {
    uint32_t pgno;
    std::vector<Child> children;  // the last is the right-most pointer
  };
  std::vector<Level> levels;

  static constexpr size_t kSlotsPerChunk = 64;
  uint8_t* Slot(size_t i, size_t page_size) {
    while (chunks.size() <= i / kSlotsPerChunk) {
      chunks.emplace_back(new uint8_t[kSlotsPerChunk * page_size]);
    }
    return chunks[i / kSlotsPerChunk].get() + i % kSlotsPerChunk * page_size;
  }
};

// What one Flush writes: new pages (from `first`): leaves from their slots
// (runs of consecutive pages) and interior pages; then pages in place in
// this order; then the pages freed.
struct SqliteTableAppender::FlushState {
  uint32_t first = 0;
  uint32_t next = 0;
  struct Run {
    uint32_t pgno;
    const uint8_t* data;
    size_t pages;
  };
  std::vector<Run> leaves;
  std::vector<uint32_t> fresh_pgnos;
  std::vector<uint8_t> fresh;
  std::vector<uint32_t> in_place;
  std::vector<uint8_t> in_place_pages;
  std::vector<uint32_t> freed;
};

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
  a->small_ints_ = a->header_[44] >= 4;
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

// In pieces: SQLite's unix VFS writes at most 128 KiB a call (it masks the
// size with 0x1ffff).
bool SqliteTableAppender::WriteAt(const void* buf, size_t size,
                                  int64_t offset) {
  constexpr size_t kPiece = 64 << 10;
  const uint8_t* p = static_cast<const uint8_t*>(buf);
  for (size_t at = 0; at < size; at += kPiece) {
    const size_t n = std::min(kPiece, size - at);
    if (file_->pMethods->xWrite(file_, p + at, static_cast<int>(n),
                                offset + static_cast<int64_t>(at)) !=
        SQLITE_OK) {
      return false;
    }
  }
  return true;
}

namespace {

// A value's serial type and byte count by the leading zero bits of its
// magnitude (v, or ~v when negative): the fewest big-endian bytes that hold
// it with its sign (SQLite has no 5- or 7-byte integers), and the
// magnitudes that take the same type.
struct Width {
  uint8_t type;
  uint8_t size;
  uint64_t min_mag;
  uint64_t max_mag;
};
struct Widths {
  Width by_clz[64];
  constexpr Widths() : by_clz() {
    constexpr Width kBySize[9] = {{0, 0, 0, 0},
                                  {1, 1, 0, 0x7f},
                                  {2, 2, 0x80, 0x7fff},
                                  {3, 3, 0x8000, 0x7fffff},
                                  {4, 4, 0x800000, 0x7fffffff},
                                  {5, 6, 0x80000000, 0x7fffffffffff},
                                  {5, 6, 0x80000000, 0x7fffffffffff},
                                  {6, 8, 0x800000000000, 0x7fffffffffffffff},
                                  {6, 8, 0x800000000000, 0x7fffffffffffffff}};
    for (int clz = 0; clz < 64; ++clz) {
      const int bits = 64 - clz + 1;  // the magnitude's and the sign bit
      by_clz[clz] = kBySize[(bits + 7) / 8 > 8 ? 8 : (bits + 7) / 8];
    }
  }
};
constexpr Widths kWidths;

void Store8(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// Bytes a cell's encoding may store below its first byte (then overwritten
// by the cell below it, or zeroed with the page's free space).
constexpr size_t kCellSlack = 8;

// A leaf's cell count and content offset in its header, its free space
// (between the cell pointers and the cells) zeroed: the page's bytes are
// all defined without clearing a whole page per leaf.
void FinishLeaf(uint8_t* page, uint32_t cells, uint32_t content) {
  Put2(page + 3, cells);
  Put2(page + 5, content == 65536 ? 0 : content);
  const uint32_t free_from = kLeafHeader + 2 * cells;
  std::memset(page + free_from, 0, content - free_from);
}

}  // namespace

void SqliteTableAppender::RefuseRow(const Tree& t, int64_t rowid,
                                    size_t columns) {
  if (!error_.empty()) return;
  error_ =
      t.name + (rowid > t.last_rowid
                    ? ": a row of " + std::to_string(columns) + " values for " +
                          std::to_string(t.columns) + " columns"
                    : ": rowid " + std::to_string(rowid) + " after " +
                          std::to_string(t.last_rowid));
}

void SqliteTableAppender::RefuseLongRow(const Tree& t, size_t payload) {
  if (error_.empty()) {
    error_ = t.name + ": a row of " + std::to_string(payload) +
             " bytes, more than a page holds";
  }
}

inline __attribute__((always_inline)) size_t SqliteTableAppender::RowidLen(
    Tree& t, int64_t rowid) {
  if (rowid >= t.rowid_next) {
    t.rowid_len = VarintLen(static_cast<uint64_t>(rowid));
    t.rowid_next = t.rowid_len < 9 ? int64_t{1} << (7 * t.rowid_len)
                                   : std::numeric_limits<int64_t>::max();
  }
  return t.rowid_len;
}

inline __attribute__((always_inline)) uint8_t* SqliteTableAppender::StartCell(
    Tree& t, size_t size, uint8_t* spill_end, bool* direct) {
  if (kLeafHeader + 2 * (t.leaf_cells + 1) + size > t.leaf_content) {
    SealLeaf(t);
  }
  t.leaf_content -= static_cast<uint32_t>(size);
  *direct = kLeafHeader + 2 * (t.leaf_cells + 1) + kCellSlack <= t.leaf_content;
  return *direct ? t.leaf + t.leaf_content + size : spill_end;
}

inline __attribute__((always_inline)) void SqliteTableAppender::EndCell(
    Tree& t, int64_t rowid, const uint8_t* cell, size_t size, bool direct) {
  if (!direct) std::memcpy(t.leaf + t.leaf_content, cell, size);
  Put2(t.leaf + kLeafHeader + 2 * t.leaf_cells, t.leaf_content);
  ++t.leaf_cells;
  t.leaf_max = rowid;
  t.leaf_dirty = true;
  t.last_rowid = rowid;
}

void SqliteTableAppender::SetLayout(Layout& l, const int64_t* values,
                                    size_t n) const {
  l.type_word = 0;
  l.body = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = values[i];
    const uint64_t mag = static_cast<uint64_t>(v ^ (v >> 63));
    const Width& w = kWidths.by_clz[__builtin_clzll(mag | 1)];
    uint64_t min_mag = w.min_mag;
    uint8_t type = w.type, size = w.size;
    if (small_ints_ && static_cast<uint64_t>(v) <= 1) {
      type = static_cast<uint8_t>(8 + v), size = 0;
      min_mag = mag;
    } else if (small_ints_ && v >= 0 && min_mag < 2) {
      min_mag = 2;  // 0 and 1 have types of their own
    }
    const uint64_t max_mag = size == 0 ? mag : w.max_mag;
    l.lo[i] = v >= 0 ? min_mag : ~max_mag;
    l.span[i] = max_mag - min_mag;
    l.size[i] = size;
    l.type_word |= uint64_t{type} << (8 * i);
    l.body += size;
  }
}

// The cell of a table leaf: payload size, rowid, then the record: header
// size, serial types (NULL for the INTEGER PRIMARY KEY, whose value is the
// rowid), big-endian values in as few bytes as hold them. Encoded backwards
// from the cell's end with whole-word stores (each may spill up to 8 bytes
// below what it means to write, into bytes written next), straight into the
// leaf when its free space has room for that spill, else through a buffer.
// The column count is known when compiled: the loops unroll, the sizes stay
// in registers and the types gather in one word, stored at once.
template <size_t kColumns>
void SqliteTableAppender::Append(size_t table, int64_t rowid,
                                 const int64_t (&values)[kColumns]) {
  static_assert(kColumns >= 1 && kColumns <= kMaxColumns, "1 to 8 columns");
  Tree& t = *trees_[table];
  if (rowid <= t.last_rowid || t.columns != kColumns) {
    RefuseRow(t, rowid, kColumns);
    return;
  }
  Layout& l = t.layout;
  bool same = true;
#pragma GCC unroll 8
  for (size_t i = 0; i < kColumns; ++i) {
    same &= static_cast<uint64_t>(values[i]) - l.lo[i] <= l.span[i];
  }
  if (!same) SetLayout(l, values, kColumns);
  const size_t rowid_len = RowidLen(t, rowid);
  const size_t body = l.body;
  const size_t header = 2 + kColumns;  // size byte, NULL key, the types
  const size_t payload = header + body;
  static_assert(2 + 9 * kMaxColumns <= 0x7f, "a payload's varint is 1 byte");
  constexpr size_t payload_len = 1;
  const size_t size = payload_len + rowid_len + payload;
  bool direct;
  uint8_t* q = StartCell(t, size, spill_ + sizeof(spill_), &direct);
#pragma GCC unroll 8
  for (size_t k = 0; k < kColumns; ++k) {
    const size_t i = kColumns - 1 - k;
    Store8(q - 8, __builtin_bswap64(static_cast<uint64_t>(values[i])));
    q -= l.size[i];
  }
  Store8(q - 8, l.type_word << (8 * (8 - kColumns)));
  q -= kColumns;
  *--q = 0;
  *--q = static_cast<uint8_t>(header);
  q -= rowid_len;
  PutVarint(q, static_cast<uint64_t>(rowid), rowid_len);
  *--q = static_cast<uint8_t>(payload);
  EndCell(t, rowid, q, size, direct);
}

template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[1]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[2]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[3]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[4]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[5]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[6]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[7]);
template void SqliteTableAppender::Append(size_t, int64_t,
                                          const int64_t (&)[8]);

namespace {

// Bytes of a varint below 2^21: a row's payload size, a text's serial
// type (rows fit in a page of at most 64 KiB).
inline size_t SmallVarintLen(uint64_t v) {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : 3;
}

// `n` bytes from `s` to `d`, without a call for the short texts most
// values are (two overlapping word moves); never a byte outside either.
inline void CopyText(uint8_t* d, const char* s, size_t n) {
  if (n >= 8) {
    if (n > 16) {
      std::memcpy(d, s, n);
      return;
    }
    uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(d, &a, 8);
    std::memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(d, &a, 4);
    std::memcpy(d + n - 4, &b, 4);
  } else if (n != 0) {
    d[0] = static_cast<uint8_t>(s[0]);
    d[n / 2] = static_cast<uint8_t>(s[n / 2]);
    d[n - 1] = static_cast<uint8_t>(s[n - 1]);
  }
}

}  // namespace

// The general row: integers as Append stores them, texts as serial type
// 13 + 2 * size (a varint of 1 or 2 bytes: rows fit in a page). The sizes
// are worked out first; then the cell is encoded backwards from its end, as
// Append does (integers as whole words spilling below, texts exactly), into
// the leaf when its free space has room for the spill, else through a
// buffer. The column count is known when compiled: the loops unroll.
template <uint32_t kTexts, size_t kColumns>
void SqliteTableAppender::AppendRow(size_t table, int64_t rowid,
                                    const Value (&values)[kColumns]) {
  static_assert(kColumns >= 1 && kColumns <= kMaxColumns, "1 to 8 columns");
  Tree& t = *trees_[table];
  // Rows may also give the defaulted columns after Table::columns.
  if (rowid <= t.last_rowid || kColumns < t.columns ||
      kColumns > t.stored_columns) {
    RefuseRow(t, rowid, kColumns);
    return;
  }
  auto is_text = [&values](size_t i) {
    if constexpr (kTexts == kTextsAnywhere) {
      return values[i].text != nullptr;
    } else {
      return ((kTexts >> i) & 1) != 0;
    }
  };
  uint32_t types[kColumns];
  uint8_t sizes[kColumns];
  size_t header = 2;  // its size byte and the NULL key
  size_t body = 0;
#pragma GCC unroll 8
  for (size_t i = 0; i < kColumns; ++i) {
    if (is_text(i)) {
      const size_t n = values[i].size;
      // A longer text cannot fit a page: refused below by size.
      types[i] = static_cast<uint32_t>(13 + 2 * std::min<size_t>(n, 1 << 16));
      header += SmallVarintLen(types[i]);
      body += n;
      sizes[i] = 0;
    } else {
      const int64_t v = values[i].integer;
      header += 1;
      if (small_ints_ && static_cast<uint64_t>(v) <= 1) {
        types[i] = static_cast<uint32_t>(8 + v);
        sizes[i] = 0;
        continue;
      }
      const uint64_t mag = static_cast<uint64_t>(v ^ (v >> 63));
      const Width& w = kWidths.by_clz[__builtin_clzll(mag | 1)];
      types[i] = w.type;
      sizes[i] = w.size;
      body += w.size;
    }
  }
  const size_t payload = header + body;
  if (header > 0x7f || payload > usable_ - 35) {
    RefuseLongRow(t, payload);
    return;
  }
  const size_t rowid_len = RowidLen(t, rowid);
  const size_t payload_len = SmallVarintLen(payload);
  const size_t size = payload_len + rowid_len + payload;
  bool direct;
  uint8_t* q =
      StartCell(t, size, row_spill_.data() + row_spill_.size(), &direct);
#pragma GCC unroll 8
  for (size_t k = 0; k < kColumns; ++k) {
    const size_t i = kColumns - 1 - k;
    if (is_text(i)) {
      q -= values[i].size;
      CopyText(q, values[i].text, values[i].size);
    } else {
      Store8(q - 8,
             __builtin_bswap64(static_cast<uint64_t>(values[i].integer)));
      q -= sizes[i];
    }
  }
#pragma GCC unroll 8
  for (size_t k = 0; k < kColumns; ++k) {
    const uint32_t type = types[kColumns - 1 - k];
    if (type < 0x80) {
      *--q = static_cast<uint8_t>(type);
    } else {
      q -= SmallVarintLen(type);
      PutVarint(q, type, SmallVarintLen(type));
    }
  }
  *--q = 0;
  *--q = static_cast<uint8_t>(header);
  q -= rowid_len;
  PutVarint(q, static_cast<uint64_t>(rowid), rowid_len);
  q -= payload_len;
  PutVarint(q, payload, payload_len);
  EndCell(t, rowid, q, size, direct);
}

// rocpd_arg's row: event id, position, then type, name and value, and
// extdata for a stream argument.
template void SqliteTableAppender::AppendRow<0b11100>(size_t, int64_t,
                                                      const Value (&)[5]);
template void SqliteTableAppender::AppendRow<0b111100>(size_t, int64_t,
                                                       const Value (&)[6]);

void SqliteTableAppender::AppendRow(size_t table, int64_t rowid,
                                    const Value* values, size_t n) {
  switch (n) {
#define ROCTRACE_APPEND_ROW(k)                                               \
  case k:                                                                    \
    AppendRow<kTextsAnywhere>(table, rowid,                                  \
                              *reinterpret_cast<const Value(*)[k]>(values)); \
    return;
    ROCTRACE_APPEND_ROW(1)
    ROCTRACE_APPEND_ROW(2)
    ROCTRACE_APPEND_ROW(3)
    ROCTRACE_APPEND_ROW(4)
    ROCTRACE_APPEND_ROW(5)
    ROCTRACE_APPEND_ROW(6)
    ROCTRACE_APPEND_ROW(7)
    ROCTRACE_APPEND_ROW(8)
#undef ROCTRACE_APPEND_ROW
    default:
      RefuseRow(*trees_[table], rowid, n);
  }
}

void SqliteTableAppender::EncodeTail(const Value* values, size_t n,
                                     RowTail* tail) const {
  std::string& bytes = tail->bytes;
  bytes.clear();
  size_t body = 0;
  for (size_t i = 0; i < n; ++i) {
    uint8_t type[3];
    size_t len = 1;
    if (values[i].text != nullptr) {
      const uint64_t serial = 13 + 2 * uint64_t{values[i].size};
      len = SmallVarintLen(serial);
      PutVarint(type, serial, len);
      body += values[i].size;
    } else {
      const int64_t v = values[i].integer;
      const uint64_t mag = static_cast<uint64_t>(v ^ (v >> 63));
      const Width& w = kWidths.by_clz[__builtin_clzll(mag | 1)];
      type[0] = small_ints_ && static_cast<uint64_t>(v) <= 1
                    ? static_cast<uint8_t>(8 + v)
                    : w.type;
      body += type[0] >= 8 ? 0 : w.size;
    }
    bytes.append(reinterpret_cast<const char*>(type), len);
  }
  tail->types_size = static_cast<uint32_t>(bytes.size());
  tail->cell.clear();
  tail->columns = static_cast<uint32_t>(n);
  bytes.reserve(bytes.size() + body);
  for (size_t i = 0; i < n; ++i) {
    if (values[i].text != nullptr) {
      bytes.append(values[i].text, values[i].size);
      continue;
    }
    const int64_t v = values[i].integer;
    if (small_ints_ && static_cast<uint64_t>(v) <= 1) continue;
    const uint64_t mag = static_cast<uint64_t>(v ^ (v >> 63));
    const size_t size = kWidths.by_clz[__builtin_clzll(mag | 1)].size;
    const uint64_t be = __builtin_bswap64(static_cast<uint64_t>(v));
    bytes.append(reinterpret_cast<const char*>(&be) + 8 - size, size);
  }
}

// As AppendRow, the tail's types and values copied as encoded.
void SqliteTableAppender::AppendWithTail(size_t table, int64_t rowid,
                                         int64_t first, RowTail& tail) {
  Tree& t = *trees_[table];
  const size_t columns = 1 + tail.columns;
  if (rowid <= t.last_rowid || columns < t.columns ||
      columns > t.stored_columns) {
    RefuseRow(t, rowid, columns);
    return;
  }
  uint8_t type;
  size_t first_size;
  if (small_ints_ && static_cast<uint64_t>(first) <= 1) {
    type = static_cast<uint8_t>(8 + first);
    first_size = 0;
  } else {
    const uint64_t mag = static_cast<uint64_t>(first ^ (first >> 63));
    const Width& w = kWidths.by_clz[__builtin_clzll(mag | 1)];
    type = w.type;
    first_size = w.size;
  }
  if (type == tail.cell_first_type && !tail.cell.empty() &&
      RowidLen(t, rowid) == tail.cell_rowid_len) {
    // The last cell again, its rowid and first value written over.
    const size_t size = tail.cell.size();
    bool direct;
    uint8_t* q =
        StartCell(t, size, row_spill_.data() + row_spill_.size(), &direct) -
        size;
    std::memcpy(q, tail.cell.data(), size);
    PutVarint(q + tail.cell_payload_len, static_cast<uint64_t>(rowid),
              tail.cell_rowid_len);
    uint64_t v = static_cast<uint64_t>(first);
    for (size_t i = first_size; i-- > 0; v >>= 8) {
      q[tail.cell_first_at + i] = static_cast<uint8_t>(v);
    }
    EndCell(t, rowid, q, size, direct);
    return;
  }
  const size_t types_size = tail.types_size;
  const size_t values_size = tail.bytes.size() - types_size;
  const size_t header = 3 + types_size;  // size byte, NULL key, first's type
  const size_t payload = header + first_size + values_size;
  if (header > 0x7f || payload > usable_ - 35) {
    RefuseLongRow(t, payload);
    return;
  }
  const size_t rowid_len = RowidLen(t, rowid);
  const size_t payload_len = SmallVarintLen(payload);
  const size_t size = payload_len + rowid_len + payload;
  bool direct;
  uint8_t* q =
      StartCell(t, size, row_spill_.data() + row_spill_.size(), &direct);
  // Backwards, as AppendRow: the first value's word store spills into
  // bytes the types and header then cover (or the cell slack below it).
  q -= values_size;
  std::memcpy(q, tail.bytes.data() + types_size, values_size);
  Store8(q - 8, __builtin_bswap64(static_cast<uint64_t>(first)));
  q -= first_size;
  q -= types_size;
  std::memcpy(q, tail.bytes.data(), types_size);
  *--q = type;
  *--q = 0;
  *--q = static_cast<uint8_t>(header);
  q -= rowid_len;
  PutVarint(q, static_cast<uint64_t>(rowid), rowid_len);
  q -= payload_len;
  PutVarint(q, payload, payload_len);
  tail.cell.assign(reinterpret_cast<const char*>(q), size);
  tail.cell_rowid_len = static_cast<uint8_t>(rowid_len);
  tail.cell_first_type = type;
  tail.cell_first_size = static_cast<uint8_t>(first_size);
  tail.cell_payload_len = static_cast<uint8_t>(payload_len);
  tail.cell_first_at = static_cast<uint32_t>(payload_len + rowid_len + header);
  EndCell(t, rowid, q, size, direct);
}

void SqliteTableAppender::SealLeaf(Tree& t) {
  FinishLeaf(t.leaf, t.leaf_cells, t.leaf_content);
  if (t.sealed_leaves.empty()) t.first_sealed_dirty = t.leaf_dirty;
  t.sealed_leaves.push_back({t.leaf_pgno, t.leaf_max});
  t.leaf = t.Slot(t.slots++, page_size_);
  buffered_ += page_size_;
  // The header and the reserved bytes; the rest is cells, their pointers
  // and the free space FinishLeaf zeroes.
  std::memset(t.leaf, 0, kLeafHeader);
  std::memset(t.leaf + usable_, 0, page_size_ - usable_);
  t.leaf[0] = kTableLeaf;
  t.leaf_cells = 0;
  t.leaf_content = usable_;
  t.leaf_pgno = 0;
  t.leaf_dirty = false;
}

bool SqliteTableAppender::Fits(const Child* c, size_t n) const {
  size_t bytes = kInteriorHeader;
  for (size_t i = 0; i + 1 < n; ++i) bytes += CellSize(c[i].maxkey);
  return bytes <= usable_;
}

// Children into interior pages, each as full as it goes and each with at
// least two children (SQLite reads a child page without cells as corrupt).
std::vector<std::vector<SqliteTableAppender::Child>> SqliteTableAppender::Pack(
    const Child* c, size_t n) const {
  std::vector<std::vector<Child>> groups;
  size_t i = 0;
  while (i < n) {
    size_t bytes = kInteriorHeader, j = i + 1;
    while (j < n && bytes + CellSize(c[j - 1].maxkey) <= usable_) {
      bytes += CellSize(c[j - 1].maxkey);
      ++j;
    }
    groups.emplace_back(c + i, c + j);
    i = j;
  }
  if (groups.size() > 1 && groups.back().size() == 1) {
    std::vector<Child>& prev = groups[groups.size() - 2];
    groups.back().insert(groups.back().begin(), prev.back());
    prev.pop_back();
  }
  return groups;
}

void SqliteTableAppender::BuildInterior(const Child* c, size_t n,
                                        uint8_t* page) const {
  std::memset(page, 0, page_size_);
  page[0] = kTableInterior;
  uint32_t content = usable_;
  for (size_t i = 0; i + 1 < n; ++i) {
    uint8_t cell[13];
    Put4(cell, c[i].pgno);
    const size_t key_len = VarintLen(static_cast<uint64_t>(c[i].maxkey));
    PutVarint(cell + 4, static_cast<uint64_t>(c[i].maxkey), key_len);
    const size_t size = 4 + key_len;
    content -= static_cast<uint32_t>(size);
    std::memcpy(page + content, cell, size);
    Put2(page + kInteriorHeader + 2 * i, content);
  }
  Put2(page + 3, static_cast<uint32_t>(n - 1));
  Put2(page + 5, content == 65536 ? 0 : content);
  Put4(page + 8, c[n - 1].pgno);
}

uint8_t* SqliteTableAppender::NewPage(FlushState& s, uint32_t* pgno) const {
  *pgno = s.next++;
  s.fresh_pgnos.push_back(*pgno);
  s.fresh.resize(s.fresh.size() + page_size_);
  return s.fresh.data() + s.fresh.size() - page_size_;
}

namespace {
uint8_t* InPlace(std::vector<uint32_t>& pgnos, std::vector<uint8_t>& pages,
                 uint32_t page_size, uint32_t pgno) {
  pgnos.push_back(pgno);
  pages.resize(pages.size() + page_size);
  return pages.data() + pages.size() - page_size;
}
}  // namespace

// `list` (children of a page at `level`) no longer fits in the root, or the
// root leaf's rows no longer fit in one leaf: new pages take them, as many
// levels as it needs, and the root (its page number fixed) becomes the
// interior page above them.
void SqliteTableAppender::GrowRoot(Tree& t, std::vector<Child> list,
                                   size_t level, FlushState& s) {
  while (!Fits(list.data(), list.size())) {
    std::vector<std::vector<Child>> groups = Pack(list.data(), list.size());
    std::vector<Child> up;
    for (const std::vector<Child>& g : groups) {
      uint32_t pgno;
      BuildInterior(g.data(), g.size(), NewPage(s, &pgno));
      up.push_back({pgno, g.back().maxkey});
    }
    if (t.levels.size() < level) t.levels.resize(level);
    t.levels[level - 1] = {up.back().pgno, groups.back()};
    list = std::move(up);
    ++level;
  }
  if (t.levels.size() < level) t.levels.resize(level);
  BuildInterior(list.data(), list.size(),
                InPlace(s.in_place, s.in_place_pages, page_size_, t.root));
  t.levels[level - 1] = {t.root, std::move(list)};
}

bool SqliteTableAppender::FlushTree(Tree& t, FlushState& s) {
  // The leaves: the one on disk first (in place), then new ones.
  struct Item {
    const uint8_t* image;
    uint32_t pgno;
    bool dirty;
    int64_t maxkey;
  };
  std::vector<Item> items;
  for (size_t i = 0; i < t.sealed_leaves.size(); ++i) {
    items.push_back({t.Slot(i, page_size_), t.sealed_leaves[i].pgno,
                     i == 0 ? t.first_sealed_dirty : true,
                     t.sealed_leaves[i].maxkey});
  }
  const bool current = t.leaf_cells > 0;
  if (current) {
    FinishLeaf(t.leaf, t.leaf_cells, t.leaf_content);
    items.push_back({t.leaf, t.leaf_pgno, t.leaf_dirty, t.leaf_max});
  }
  if (items.empty() || (items.size() == 1 && !items[0].dirty)) return true;
  const bool leaf_root = t.levels.empty();
  if (leaf_root && items.size() > 1) items[0].pgno = 0;  // the root moves
  std::vector<Child> below;
  for (Item& item : items) {
    if (item.pgno == 0) {
      item.pgno = s.next++;
      FlushState::Run* last = s.leaves.empty() ? nullptr : &s.leaves.back();
      if (last != nullptr && last->pgno + last->pages == item.pgno &&
          last->data + last->pages * page_size_ == item.image) {
        ++last->pages;
      } else {
        s.leaves.push_back({item.pgno, item.image, 1});
      }
    } else if (item.dirty) {
      std::memcpy(InPlace(s.in_place, s.in_place_pages, page_size_, item.pgno),
                  item.image, page_size_);
    }
    below.push_back({item.pgno, item.maxkey});
  }
  if (current) {
    t.leaf_pgno = items.back().pgno;
    t.leaf_dirty = false;
  }
  t.sealed_leaves.clear();
  if (leaf_root) {
    if (items.size() > 1) GrowRoot(t, std::move(below), 1, s);
    return true;
  }
  // Up the right-most path: each level's page takes its new children in
  // place while they fit and it keeps every child it had; else it is
  // replaced by new pages (and freed once its parent no longer points to
  // it), since dropping a child in place would hide rows until the parent
  // is written.
  bool replaced = false;
  for (size_t level = 1; level <= t.levels.size(); ++level) {
    Tree::Level& x = t.levels[level - 1];
    if (!replaced && below.size() == 1) {  // only the last child grew
      x.children.back().maxkey = below[0].maxkey;
      below = {{x.pgno, below[0].maxkey}};
      continue;
    }
    const size_t m = x.children.size();
    std::vector<Child> list(x.children.begin(), x.children.end() - 1);
    list.insert(list.end(), below.begin(), below.end());
    const bool root = level == t.levels.size();
    if (Fits(list.data(), list.size())) {
      BuildInterior(list.data(), list.size(),
                    InPlace(s.in_place, s.in_place_pages, page_size_, x.pgno));
      x.children = std::move(list);
      below = {{x.pgno, x.children.back().maxkey}};
      replaced = false;
      continue;
    }
    if (root) {
      GrowRoot(t, std::move(list), level, s);
      return true;
    }
    // The most children one page holds: a cell for each but the last.
    size_t longest = 1;
    for (size_t bytes = kInteriorHeader; longest < list.size(); ++longest) {
      bytes += CellSize(list[longest - 1].maxkey);
      if (bytes > usable_) break;
    }
    const size_t keep = m - 1 + (replaced ? below.size() : 1);
    const size_t p = std::min(longest, list.size() - 2);
    std::vector<Child> next;
    size_t from = 0;
    if (p >= keep) {
      BuildInterior(list.data(), p,
                    InPlace(s.in_place, s.in_place_pages, page_size_, x.pgno));
      next.push_back({x.pgno, list[p - 1].maxkey});
      from = p;
      replaced = false;
    } else {
      s.freed.push_back(x.pgno);
      replaced = true;
    }
    std::vector<std::vector<Child>> groups =
        Pack(list.data() + from, list.size() - from);
    for (const std::vector<Child>& g : groups) {
      uint32_t pgno;
      BuildInterior(g.data(), g.size(), NewPage(s, &pgno));
      next.push_back({pgno, g.back().maxkey});
    }
    x = {next.back().pgno, groups.back()};
    below = std::move(next);
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
  bool ok = true;
  for (const FlushState::Run& run : s.leaves) {
    ok = ok && WriteAt(run.data, run.pages * page_size_,
                       int64_t{run.pgno - 1} * page_size_);
  }
  for (size_t i = 0; ok && i < s.fresh_pgnos.size(); ++i) {
    ok = WriteAt(&s.fresh[i * page_size_], page_size_,
                 int64_t{s.fresh_pgnos[i] - 1} * page_size_);
  }
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
