// The leaf cell encoders' inline parts, shared by sqlite_leaf_cells.cc and
// the writers that append many rows: a rowid's varint length, a cell's
// start and bookkeeping, short texts copied without a call, Append's
// integer row (AppendInline: the rocpd writer's event and region rows) and
// AppendAroundMiddle's common row (AppendAroundMiddleInline: its argument
// rows), which such a caller inlines: for an argument row the call and its
// register saves were a fifth of the encoder's cost.
#ifndef ROCTRACE_WRITERS_SQLITE_LEAF_CELLS_H_
#define ROCTRACE_WRITERS_SQLITE_LEAF_CELLS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "roctrace/writers/sqlite_appender_tree.h"
#include "roctrace/writers/sqlite_file_format.h"
#include "roctrace/writers/sqlite_table_appender.h"

namespace roctrace {
namespace sqlite_format {

// `n` bytes from `s` to `d`, without a call for the short texts most
// values, types and names are (two overlapping moves of 16, 8, 4 bytes);
// never a byte outside either.
inline __attribute__((always_inline)) void CopyText(uint8_t* d, const char* s,
                                                    size_t n) {
  if (n >= 8) {
    if (n > 16) {
      if (n > 32) {
        std::memcpy(d, s, n);
        return;
      }
      unsigned char a[16], b[16];
      std::memcpy(a, s, 16);
      std::memcpy(b, s + n - 16, 16);
      std::memcpy(d, a, 16);
      std::memcpy(d + n - 16, b, 16);
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

}  // namespace sqlite_format

inline __attribute__((always_inline)) size_t SqliteTableAppender::RowidLen(
    Tree& t, int64_t rowid) {
  if (rowid >= t.rowid_next) {
    t.rowid_len = sqlite_format::VarintLen(static_cast<uint64_t>(rowid));
    t.rowid_next = t.rowid_len < 9 ? int64_t{1} << (7 * t.rowid_len)
                                   : std::numeric_limits<int64_t>::max();
  }
  return t.rowid_len;
}

inline __attribute__((always_inline)) void SqliteTableAppender::EndCell(
    Tree& t, int64_t rowid, const uint8_t* cell, size_t size, bool direct) {
  if (!direct) std::memcpy(t.leaf + t.leaf_content, cell, size);
  sqlite_format::Put2(t.leaf + sqlite_format::kLeafHeader + 2 * t.leaf_cells,
                      t.leaf_content);
  ++t.leaf_cells;
  t.leaf_max = rowid;
  t.leaf_dirty = true;
  t.last_rowid = rowid;
}

inline __attribute__((always_inline)) uint8_t* SqliteTableAppender::StartCell(
    Tree& t, size_t size, uint8_t* spill_end, bool* direct) {
  if (sqlite_format::kLeafHeader + 2 * (t.leaf_cells + 1) + size >
      t.leaf_content) {
    SealLeaf(t);
  }
  t.leaf_content -= static_cast<uint32_t>(size);
  *direct = sqlite_format::kLeafHeader + 2 * (t.leaf_cells + 1) +
                sqlite_format::kCellSlack <=
            t.leaf_content;
  return *direct ? t.leaf + t.leaf_content + size : spill_end;
}

template <size_t kColumns, uint32_t kFixed>
inline __attribute__((always_inline)) void SqliteTableAppender::AppendLongCopy(
    size_t table, int64_t rowid, const int64_t (&values)[kColumns]) {
  int64_t copy[kColumns];
#pragma GCC unroll 8
  for (size_t i = 0; i < kColumns; ++i) copy[i] = values[i];
  AppendLong(table, rowid, copy, kFixed);
}

// The cell of a table leaf: payload size, rowid, then the record: header
// size, serial types (NULL for the INTEGER PRIMARY KEY, whose value is the
// rowid), big-endian values in as few bytes as hold them. Encoded backwards
// from the cell's end with whole-word stores (each may spill up to 8 bytes
// below what it means to write, into bytes written next), straight into the
// leaf. The column count is known when compiled: the loops unroll, the
// sizes stay in registers and the types gather in one word, stored at once.
// The common row (each value of the last row's serial type, room in the
// leaf for the cell and the spill below it) inline; every other row out of
// line (AppendLong). kFixed's columns (no bytes, the same every row) are
// neither checked nor stored: the layout says they have no bytes.
inline __attribute__((always_inline)) SqliteTableAppender::RowidCode
SqliteTableAppender::RowidCodeOf(int64_t rowid) {
  const uint64_t v = static_cast<uint64_t>(rowid);
  if (__builtin_expect(v < (uint64_t{1} << 21), 1)) {
    if (v >= (uint64_t{1} << 14)) {
      return {rowid,
              ((v >> 14) | 0x80) << 40 | (((v >> 7) & 0x7f) | 0x80) << 48 |
                  (v & 0x7f) << 56,
              3};
    }
    if (v >= 0x80) {
      return {rowid, ((v >> 7) | 0x80) << 48 | (v & 0x7f) << 56, 2};
    }
    return {rowid, v << 56, 1};
  }
  const size_t len = sqlite_format::VarintLen(v);
  if (len > 8) return {rowid, 0, size_t{1} << 20};
  uint8_t bytes[8] = {};
  sqlite_format::PutVarint(bytes + 8 - len, v, len);
  uint64_t word;
  std::memcpy(&word, bytes, 8);
  return {rowid, word, len};
}

template <size_t kColumns, uint32_t kFixed>
inline __attribute__((always_inline)) void SqliteTableAppender::AppendInline(
    size_t table, int64_t rowid, const int64_t (&values)[kColumns]) {
  AppendInline<kColumns, kFixed>(table, RowidCodeOf(rowid), values);
}

template <size_t kColumns, uint32_t kFixed>
inline __attribute__((always_inline)) void SqliteTableAppender::AppendInline(
    size_t table, const RowidCode& code, const int64_t (&values)[kColumns]) {
  const int64_t rowid = code.rowid;
  static_assert(kColumns >= 1 && kColumns <= kMaxColumns, "1 to 8 columns");
  Tree& t = *tree_at_[table];
  Layout& l = t.layout;
  // The layout's shape: set from a row of kColumns values (the table's
  // count: AppendLong refuses others) and kFixed's columns of no bytes.
  bool common = rowid > t.last_rowid &&
                l.shape == (kFixed | static_cast<uint32_t>(kColumns) << 16);
#pragma GCC unroll 8
  for (size_t i = 0; i < kColumns; ++i) {
    if (((kFixed >> i) & 1) != 0) continue;
    common = common && static_cast<uint64_t>(values[i]) - l.lo[i] <= l.span[i];
  }
  // The slow path takes a copy: the caller's array, read only here by
  // constant indices, then stays in registers (no stores on the common
  // path).
  if (__builtin_expect(!common, 0)) {
    AppendLongCopy<kColumns, kFixed>(table, rowid, values);
    return;
  }
  const size_t rowid_len = code.len;
  const size_t header = 2 + kColumns;  // size byte, NULL key, the types
  const size_t payload = header + l.body;
  static_assert(2 + 9 * kMaxColumns <= 0x7f, "a payload's varint is 1 byte");
  const size_t size = 1 + rowid_len + payload;
  if (__builtin_expect(sqlite_format::kLeafHeader + 2 * (t.leaf_cells + 1) +
                               size + sqlite_format::kCellSlack >
                           t.leaf_content,
                       0)) {
    AppendLongCopy<kColumns, kFixed>(table, rowid, values);
    return;
  }
  t.leaf_content -= static_cast<uint32_t>(size);
  uint8_t* q = t.leaf + t.leaf_content + size;
#pragma GCC unroll 8
  for (size_t k = 0; k < kColumns; ++k) {
    const size_t i = kColumns - 1 - k;
    if (((kFixed >> i) & 1) != 0) continue;
    sqlite_format::Store8(q - 8,
                          __builtin_bswap64(static_cast<uint64_t>(values[i])));
    q -= l.size[i];
  }
  // The types at the word's top; below them the NULL key's 0 and, when
  // two bytes remain, the header size.
  uint64_t types = l.type_word << (8 * (8 - kColumns));
  if constexpr (kColumns <= 6) {
    types |= uint64_t{header} << (8 * (6 - kColumns));
  }
  sqlite_format::Store8(q - 8, types);
  q -= kColumns + 2;
  if constexpr (kColumns > 6) *q = static_cast<uint8_t>(header);
  if constexpr (kColumns == 8) q[1] = 0;  // no byte below the types
  // The varint's word: its bytes below the varint land where the payload
  // size goes next and in the slack below the cell.
  sqlite_format::Store8(q - 8, code.word);
  q -= rowid_len;
  *--q = static_cast<uint8_t>(payload);
  EndCell(t, rowid, q, size, true);
}

// The common row: a record shorter than 128 bytes (its size a 1-byte
// varint), a last text shorter than 57 (its type one byte), the middle
// prepared (RowTail::around_header), room in the leaf for the cell and the
// middle's whole copy below it; every other row goes out of line
// (AppendAroundMiddleLong). Encoded backwards: the last text, the middle's
// values (a fixed-size copy), the first value's word store, then the whole
// header in one word store with the first's and the last's types put in
// (each store's spill below covered by the next), the rowid, the record's
// size.
inline __attribute__((always_inline)) void
SqliteTableAppender::AppendAroundMiddleInline(size_t table, int64_t rowid,
                                              int64_t first,
                                              const RowTail& middle,
                                              const char* last,
                                              size_t last_size) {
  using sqlite_format::Store8;
  constexpr size_t kCopy = RowTail::kAroundValues;
  Tree& t = *tree_at_[table];
  if (__builtin_expect(first != t.around_first, 0)) {
    const sqlite_format::IntegerCell c =
        sqlite_format::IntegerCellOf(first, small_ints_);
    t.around_first = first;
    t.around_first_type = c.type;
    t.around_first_size = c.size;
  }
  const size_t header = middle.around_header_size;
  const size_t first_size = t.around_first_size;
  const size_t payload =
      header + first_size + middle.around_values_size + last_size;
  const size_t columns = 2 + middle.columns;
  if (__builtin_expect(header == 0 || last_size >= 57 || payload >= 0x80 ||
                           rowid <= t.last_rowid || columns < t.columns ||
                           columns > t.stored_columns,
                       0)) {
    AppendAroundMiddleLong(table, rowid, first, middle, last, last_size);
    return;
  }
  const size_t rowid_len = RowidLen(t, rowid);
  const size_t size = 1 + rowid_len + payload;
  if (__builtin_expect(
          sqlite_format::kLeafHeader + 2 * (t.leaf_cells + 1) + kCopy + size >
              t.leaf_content,
          0)) {
    // A new leaf (or the spill buffer) first.
    AppendAroundMiddleLong(table, rowid, first, middle, last, last_size);
    return;
  }
  t.leaf_content -= static_cast<uint32_t>(size);
  uint8_t* q = t.leaf + t.leaf_content + size;
  q -= last_size;
  sqlite_format::CopyText(q, last, last_size);
  std::memcpy(q - kCopy, middle.around_values, kCopy);
  q -= middle.around_values_size;
  Store8(q - 8, __builtin_bswap64(static_cast<uint64_t>(first)));
  q -= first_size;
  Store8(q - 8, middle.around_header |
                    uint64_t{t.around_first_type} << (8 * (10 - header)) |
                    uint64_t{13 + 2 * last_size} << 56);
  q -= header;
  q -= rowid_len;
  sqlite_format::PutVarint(q, static_cast<uint64_t>(rowid), rowid_len);
  *--q = static_cast<uint8_t>(payload);
  EndCell(t, rowid, q, size, true);
}

// The tail's last cell again (AppendWithTail's first branch): copied in
// 16-byte words from the end of `cell_words` (the first word's bytes below
// the cell land in the leaf's free space, for which room is asked), the
// rowid's varint written over, the first value's bytes merged into the
// word that ends with them (the cell's bytes before them kept).
inline __attribute__((always_inline)) bool
SqliteTableAppender::AppendWithTailInline(size_t table, int64_t rowid,
                                          int64_t first, RowTail& tail) {
  const size_t size = tail.cell_size;
  if (size == 0) return false;
  Tree& t = *tree_at_[table];
  const size_t columns = 1 + tail.columns;
  if (rowid <= t.last_rowid || columns < t.columns ||
      columns > t.stored_columns) {
    return false;
  }
  // IntegerCellOf spelled out, as in AppendWithTail: through it this path
  // takes about 4 more instructions a row (callgrind, BM_RocpdArgs/2).
  uint8_t type;
  size_t first_size;
  if (small_ints_ && static_cast<uint64_t>(first) <= 1) {
    type = static_cast<uint8_t>(8 + first);
    first_size = 0;
  } else {
    const sqlite_format::Width& w = sqlite_format::WidthOf(first);
    type = w.type;
    first_size = w.size;
  }
  if (type != tail.cell_first_type ||
      RowidLen(t, rowid) != tail.cell_rowid_len) {
    return false;
  }
  const size_t rounded = (size + 15) & ~size_t{15};
  if (sqlite_format::kLeafHeader + 2 * (t.leaf_cells + 1) + rounded >
      t.leaf_content) {
    return false;
  }
  t.leaf_content -= static_cast<uint32_t>(size);
  uint8_t* q = t.leaf + t.leaf_content;
  uint8_t* d = q + size - rounded;
  const unsigned char* from = tail.cell_words + RowTail::kCellWords - rounded;
  for (size_t i = 0; i < rounded; i += 16) {
    unsigned char word[16];
    std::memcpy(word, from + i, 16);
    std::memcpy(d + i, word, 16);
  }
  sqlite_format::PutVarint(q + tail.cell_payload_len,
                           static_cast<uint64_t>(rowid), tail.cell_rowid_len);
  if (first_size != 0) {
    uint8_t* end = q + tail.cell_first_at + first_size;
    uint64_t word;
    std::memcpy(&word, end - 8, 8);
    const uint64_t mask =
        first_size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * first_size)) - 1;
    const uint64_t be = (__builtin_bswap64(word) & ~mask) |
                        (static_cast<uint64_t>(first) & mask);
    word = __builtin_bswap64(be);
    std::memcpy(end - 8, &word, 8);
  }
  EndCell(t, rowid, q, size, true);
  return true;
}

namespace sqlite_format {

// The image's rows patched in place: each row's rowid varint of kLen bytes
// (kLen known when compiled: the stores unroll) and its first value's
// bytes merged into the big-endian word that ends with them (the other
// bytes of that word, which may lie in the cell below or in the leaf's
// free space, written back as they were); its cell pointer.
template <size_t kLen>
inline __attribute__((always_inline)) void PatchCallRows(
    uint8_t* q, uint8_t* pointers, uint32_t content,
    const SqliteTableAppender::CallImage& image, uint64_t rowid,
    uint64_t first) {
  const size_t n = image.rows;
  const uint64_t mask = image.first_mask;
  const uint64_t value = first & mask;
  const size_t len = kLen == 0 ? image.rowid_len : kLen;
  if (__builtin_expect(mask == 0, 0)) {  // a first value of no bytes
    for (size_t i = 0; i < n; ++i) {
      const SqliteTableAppender::CallImage::Row& r = image.row[i];
      PutVarint(q + r.rowid_at, rowid + i, len);
      Put2(pointers + 2 * i, content + r.cell);
    }
    return;
  }
  // The first value's word before the rowid: the word may reach back into
  // the header and, for a short header, the rowid. The first row apart:
  // a call of one argument takes no loop.
  const SqliteTableAppender::CallImage::Row* r = image.row;
  Store8(q + r->first_end - 8, __builtin_bswap64(r->first_word | value));
  PutVarint(q + r->rowid_at, rowid, len);
  Put2(pointers, content + r->cell);
  for (size_t i = 1; i < n; ++i) {
    ++r;
    Store8(q + r->first_end - 8, __builtin_bswap64(r->first_word | value));
    PutVarint(q + r->rowid_at, rowid + i, len);
    Put2(pointers + 2 * i, content + r->cell);
  }
}

}  // namespace sqlite_format

inline __attribute__((always_inline)) bool
SqliteTableAppender::AppendCallInline(size_t table, int64_t rowid,
                                      int64_t first, const CallImage& image) {
  const size_t n = image.rows;
  Tree& t = *tree_at_[table];
  if (n == 0 || rowid <= t.last_rowid ||
      static_cast<uint64_t>(rowid) - image.rowid_lo > image.rowid_span ||
      static_cast<uint64_t>(first) - image.first_lo > image.first_span) {
    return false;
  }
  const size_t size = image.size;
  // The copy: 16-byte words from the cells' end down, at least four (most
  // calls' cells fit them, copied without a loop).
  constexpr size_t kWords = 64;
  static_assert(kWords == CallImage::kMinCopy, "the image's copy size");
  const size_t rounded = image.rounded;
  // Room for the cells, their pointers, the copy's words below the cells
  // and the first value's word below the lowest.
  if (sqlite_format::kLeafHeader + 2 * (t.leaf_cells + n) + rounded + 8 >
      t.leaf_content) {
    return false;
  }
  t.leaf_content -= static_cast<uint32_t>(size);
  uint8_t* q = t.leaf + t.leaf_content;
  uint8_t* end = q + size;
  const unsigned char* from = image.bytes + CallImage::kBytes;
#pragma GCC unroll 4
  for (size_t i = 16; i <= kWords; i += 16) {
    unsigned char word[16];
    std::memcpy(word, from - i, 16);
    std::memcpy(end - i, word, 16);
  }
  for (size_t i = kWords + 16; i <= rounded; i += 16) {
    unsigned char word[16];
    std::memcpy(word, from - i, 16);
    std::memcpy(end - i, word, 16);
  }
  uint8_t* pointers = t.leaf + sqlite_format::kLeafHeader + 2 * t.leaf_cells;
  const uint64_t r = static_cast<uint64_t>(rowid);
  const uint64_t f = static_cast<uint64_t>(first);
  switch (image.rowid_len) {
    case 2:
      sqlite_format::PatchCallRows<2>(q, pointers, t.leaf_content, image, r, f);
      break;
    case 3:
      sqlite_format::PatchCallRows<3>(q, pointers, t.leaf_content, image, r, f);
      break;
    default:
      sqlite_format::PatchCallRows<0>(q, pointers, t.leaf_content, image, r, f);
  }
  t.leaf_cells += static_cast<uint32_t>(n);
  const int64_t last = rowid + static_cast<int64_t>(n) - 1;
  t.leaf_max = last;
  t.leaf_dirty = true;
  t.last_rowid = last;
  return true;
}

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_SQLITE_LEAF_CELLS_H_
