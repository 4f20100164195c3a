#include "roctrace/writers/sqlite_leaf_cells.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "roctrace/writers/sqlite_appender_tree.h"
#include "roctrace/writers/sqlite_file_format.h"
#include "roctrace/writers/sqlite_table_appender.h"

// Rows into table b-tree leaf cells: the SQLite record encoding of
// Append, AppendRow and AppendWithTail, and the right-most leaf they fill.
namespace roctrace {

using sqlite_format::CopyText;
using sqlite_format::FinishLeaf;
using sqlite_format::IntegerCell;
using sqlite_format::IntegerCellOf;
using sqlite_format::kCellSlack;
using sqlite_format::kLeafHeader;
using sqlite_format::kTableLeaf;
using sqlite_format::Put2;
using sqlite_format::PutVarint;
using sqlite_format::SmallVarintLen;
using sqlite_format::Store8;
using sqlite_format::VarintLen;
using sqlite_format::Width;
using sqlite_format::WidthOf;
constexpr size_t kMaxColumns = SqliteTableAppender::kMaxColumns;

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

void SqliteTableAppender::SetLayout(Layout& l, const int64_t* values, size_t n,
                                    uint32_t fixed) const {
  l.type_word = 0;
  l.body = 0;
  l.fixed = fixed;
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = values[i];
    const uint64_t mag = static_cast<uint64_t>(v ^ (v >> 63));
    const Width& w = WidthOf(v);
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
    if (size != 0 && ((fixed >> i) & 1) != 0) l.fixed = 0;
    l.type_word |= uint64_t{type} << (8 * i);
    l.body += size;
  }
  l.shape = l.fixed | static_cast<uint32_t>(n) << 16;
}

// Out of line for the callers that do not include sqlite_leaf_cells.h.
template <size_t kColumns>
void SqliteTableAppender::Append(size_t table, int64_t rowid,
                                 const int64_t (&values)[kColumns]) {
  AppendInline(table, rowid, values);
}

// Every row: the layout checked column by column (set anew from this row
// when it differs), a new leaf when this one is full, the cell through the
// spill buffer when the leaf has no room below it for the word stores.
template <size_t kColumns>
void SqliteTableAppender::AppendLong(size_t table, int64_t rowid,
                                     const int64_t (&values)[kColumns],
                                     uint32_t fixed) {
  static_assert(kColumns >= 1 && kColumns <= kMaxColumns, "1 to 8 columns");
  Tree& t = *trees_[table];
  if (rowid <= t.last_rowid || t.columns != kColumns) {
    RefuseRow(t, rowid, kColumns);
    return;
  }
  Layout& l = t.layout;
  bool same = l.fixed == fixed;
  for (size_t i = 0; i < kColumns; ++i) {
    same &= static_cast<uint64_t>(values[i]) - l.lo[i] <= l.span[i];
  }
  if (!same) SetLayout(l, values, kColumns, fixed);
  const size_t rowid_len = RowidLen(t, rowid);
  const size_t header = 2 + kColumns;  // size byte, NULL key, the types
  const size_t payload = header + l.body;
  const size_t size = 1 + rowid_len + payload;
  bool direct;
  uint8_t* q = StartCell(t, size, spill_ + sizeof(spill_), &direct);
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
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[1], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[2], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[3], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[4], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[5], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[6], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[7], uint32_t);
template void SqliteTableAppender::AppendLong(size_t, int64_t,
                                              const int64_t (&)[8], uint32_t);

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
      const IntegerCell c = IntegerCellOf(values[i].integer, small_ints_);
      header += 1;
      types[i] = c.type;
      sizes[i] = c.size;
      body += c.size;
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
      const IntegerCell c = IntegerCellOf(values[i].integer, small_ints_);
      type[0] = c.type;
      body += c.size;
    }
    bytes.append(reinterpret_cast<const char*>(type), len);
  }
  tail->types_size = static_cast<uint32_t>(bytes.size());
  tail->around_header = 0;
  tail->around_header_size = 0;
  tail->around_values_size = 0;
  if (tail->types_size <= 4 && body <= RowTail::kAroundValues) {
    // Size byte, NULL key, the first's type, these, the last's type.
    const size_t header = 4 + tail->types_size;
    uint64_t word = header;
    for (size_t i = 0; i < tail->types_size; ++i) {
      word |= uint64_t{static_cast<uint8_t>(bytes[i])} << (8 * (3 + i));
    }
    tail->around_header = word << (8 * (8 - header));
  }
  tail->cell.clear();
  tail->cell_size = 0;
  tail->columns = static_cast<uint32_t>(n);
  bytes.reserve(bytes.size() + body);
  for (size_t i = 0; i < n; ++i) {
    if (values[i].text != nullptr) {
      bytes.append(values[i].text, values[i].size);
      continue;
    }
    const int64_t v = values[i].integer;
    if (small_ints_ && static_cast<uint64_t>(v) <= 1) continue;
    const size_t size = WidthOf(v).size;
    const uint64_t be = __builtin_bswap64(static_cast<uint64_t>(v));
    bytes.append(reinterpret_cast<const char*>(&be) + 8 - size, size);
  }
  if (tail->around_header != 0) {
    std::memset(tail->around_values, 0, sizeof(tail->around_values));
    std::memcpy(tail->around_values + sizeof(tail->around_values) - body,
                bytes.data() + tail->types_size, body);
    tail->around_values_size = static_cast<uint8_t>(body);
    tail->around_header_size = static_cast<uint8_t>(4 + tail->types_size);
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
  // IntegerCellOf's logic, spelled out: through the helper GCC lays the
  // repeated-cell path out with 4 more instructions a row.
  uint8_t type;
  size_t first_size;
  if (small_ints_ && static_cast<uint64_t>(first) <= 1) {
    type = static_cast<uint8_t>(8 + first);
    first_size = 0;
  } else {
    const Width& w = WidthOf(first);
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
  tail.cell_size = 0;
  if (size <= RowTail::kCellWords && tail.cell_first_at + 1 >= 8) {
    std::memcpy(tail.cell_words + RowTail::kCellWords - size, q, size);
    tail.cell_size = static_cast<uint32_t>(size);
  }
  EndCell(t, rowid, q, size, direct);
}

void SqliteTableAppender::AppendCall(size_t table, int64_t rowid, int64_t first,
                                     RowTail* tails, size_t n,
                                     CallImage* image) {
  Tree& t = *trees_[table];
  // The image's first row does not fit in this leaf, so the rows begin a
  // new one, as row by row: sealed here, the image copied into it.
  if (image->rows != 0 && image->rows == n && t.leaf_cells != 0 &&
      rowid > t.last_rowid &&
      static_cast<uint64_t>(rowid) - image->rowid_lo <= image->rowid_span &&
      static_cast<uint64_t>(first) - image->first_lo <= image->first_span &&
      kLeafHeader + 2 * (t.leaf_cells + 1) +
              (image->size - image->row[0].cell) >
          t.leaf_content) {
    SealLeaf(t);
    if (AppendCallInline(table, rowid, first, *image)) return;
  } else if (image->rows != 0 && image->rows == n && rowid > t.last_rowid &&
             static_cast<uint64_t>(rowid) - image->rowid_lo <=
                 image->rowid_span &&
             static_cast<uint64_t>(first) - image->first_lo <=
                 image->first_span &&
             kLeafHeader + 2 * (t.leaf_cells + n) + image->size + 2 <=
                 t.leaf_content) {
    // The rows fit, but not the inline copy's whole words (the leaf's
    // last rows): the image copied to the byte, then patched. The first
    // value's word of the lowest cell may begin 2 bytes below it.
    const uint32_t size = image->size;
    t.leaf_content -= size;
    uint8_t* q = t.leaf + t.leaf_content;
    std::memcpy(q, image->bytes + CallImage::kBytes - size, size);
    sqlite_format::PatchCallRows<0>(
        q, t.leaf + kLeafHeader + 2 * t.leaf_cells, t.leaf_content, *image,
        static_cast<uint64_t>(rowid), static_cast<uint64_t>(first));
    t.leaf_cells += static_cast<uint32_t>(n);
    const int64_t last = rowid + static_cast<int64_t>(n) - 1;
    t.leaf_max = last;
    t.leaf_dirty = true;
    t.last_rowid = last;
    return;
  }
  const uint8_t* leaf = t.leaf;
  uint32_t cells = t.leaf_cells;
  uint32_t content = t.leaf_content;
  for (size_t i = 0; i < n; ++i) {
    const int64_t id = rowid + static_cast<int64_t>(i);
    if (!AppendWithTailInline(table, id, first, tails[i])) {
      AppendWithTail(table, id, first, tails[i]);
      // The first row began a new leaf (the common way here: the image's
      // copy did not fit): the rows start it, and the image is kept.
      if (i == 0 && t.leaf != leaf && t.leaf_cells == 1) {
        leaf = t.leaf;
        cells = 0;
        content = static_cast<uint32_t>(usable_);
      }
    }
  }
  image->rows = 0;
  // Kept when every row is in this leaf, each cell as its tail describes
  // it (rowid varints and first value of one width), and small enough.
  const size_t size = content - t.leaf_content;
  if (n == 0 || n > CallImage::kRows || t.leaf != leaf ||
      t.leaf_cells != cells + n || size > CallImage::kBytes - 8 || first < 0) {
    return;
  }
  const size_t rowid_len = tails[0].cell_rowid_len;
  const size_t first_size = tails[0].cell_first_size;
  for (size_t i = 0; i < n; ++i) {
    const RowTail& tail = tails[i];
    const uint32_t at =
        sqlite_format::Get2(t.leaf + kLeafHeader + 2 * (cells + i)) -
        t.leaf_content;
    if (tail.cell.empty() || tail.cell_rowid_len != rowid_len ||
        tail.cell_first_size != first_size || at + tail.cell.size() > size) {
      return;
    }
    image->row[i] = {
        static_cast<uint16_t>(at),
        static_cast<uint16_t>(at + tail.cell_payload_len),
        static_cast<uint16_t>(at + tail.cell_first_at + first_size), 0};
  }
  unsigned char* const start = image->bytes + CallImage::kBytes - size;
  std::memcpy(start, t.leaf + t.leaf_content, size);
  const uint64_t mask =
      first_size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * first_size)) - 1;
  for (size_t i = 0; i < n; ++i) {
    // The 8 bytes may begin up to 2 below the image (its lowest cell's
    // value starts at least 6 bytes in): the array's zeros there.
    uint64_t word;
    std::memcpy(&word, start + image->row[i].first_end - 8, 8);
    image->row[i].first_word = __builtin_bswap64(word) & ~mask;
  }
  image->size = static_cast<uint32_t>(size);
  image->rounded = static_cast<uint32_t>(size <= CallImage::kMinCopy
                                             ? CallImage::kMinCopy
                                             : (size + 15) & ~size_t{15});
  image->rowid_len = static_cast<uint8_t>(rowid_len);
  image->first_size = static_cast<uint8_t>(first_size);
  // The rowids whose varints take rowid_len bytes, less the call's others.
  const uint64_t lo = rowid_len == 1 ? 0 : uint64_t{1} << (7 * (rowid_len - 1));
  const uint64_t hi = rowid_len >= 9 ? uint64_t{INT64_MAX}
                                     : (uint64_t{1} << (7 * rowid_len)) - 1;
  image->rowid_lo = lo;
  image->rowid_span = hi - lo - (n - 1);
  // The first values of its serial type (as SetLayout's ranges).
  const uint64_t f = static_cast<uint64_t>(first);
  if (small_ints_ && f <= 1) {
    image->first_lo = f;
    image->first_span = 0;
  } else {
    const Width& w = WidthOf(first);
    image->first_lo = small_ints_ && w.min_mag < 2 ? 2 : w.min_mag;
    image->first_span = w.max_mag - image->first_lo;
  }
  image->first_mask = mask;
  image->rows = static_cast<uint32_t>(n);
}

void SqliteTableAppender::AppendAroundMiddle(size_t table, int64_t rowid,
                                             int64_t first,
                                             const RowTail& middle,
                                             const char* last,
                                             size_t last_size) {
  AppendAroundMiddleInline(table, rowid, first, middle, last, last_size);
}

// The other rows, encoded backwards as AppendWithTail's first cell: the last
// text, the middle's values, the first value's word store (its spill
// covered by the types and header written next), the types.
void SqliteTableAppender::AppendAroundMiddleLong(size_t table, int64_t rowid,
                                                 int64_t first,
                                                 const RowTail& middle,
                                                 const char* last,
                                                 size_t last_size) {
  Tree& t = *trees_[table];
  const size_t columns = 2 + middle.columns;
  if (rowid <= t.last_rowid || columns < t.columns ||
      columns > t.stored_columns) {
    RefuseRow(t, rowid, columns);
    return;
  }
  const IntegerCell first_cell = IntegerCellOf(first, small_ints_);
  const uint8_t first_type = first_cell.type;
  const size_t first_size = first_cell.size;
  // A longer text cannot fit a page: refused below by size.
  const uint32_t last_type =
      static_cast<uint32_t>(13 + 2 * std::min<size_t>(last_size, 1 << 16));
  const size_t last_type_len =
      __builtin_expect(last_type < 0x80, 1) ? 1 : SmallVarintLen(last_type);
  const size_t types_size = middle.types_size;
  const size_t values_size = middle.bytes.size() - types_size;
  // Size byte, NULL key, the first's type, the middle's, the last's.
  const size_t header = 3 + types_size + last_type_len;
  const size_t payload = header + first_size + values_size + last_size;
  if (header > 0x7f || payload > usable_ - 35) {
    RefuseLongRow(t, payload);
    return;
  }
  const size_t rowid_len = RowidLen(t, rowid);
  const size_t payload_len =
      __builtin_expect(payload < 0x80, 1) ? 1 : SmallVarintLen(payload);
  const size_t size = payload_len + rowid_len + payload;
  bool direct;
  uint8_t* q =
      StartCell(t, size, row_spill_.data() + row_spill_.size(), &direct);
  q -= last_size;
  CopyText(q, last, last_size);
  q -= values_size;
  CopyText(q, middle.bytes.data() + types_size, values_size);
  Store8(q - 8, __builtin_bswap64(static_cast<uint64_t>(first)));
  q -= first_size;
  if (__builtin_expect(last_type_len == 1, 1)) {
    *--q = static_cast<uint8_t>(last_type);
  } else {
    q -= last_type_len;
    PutVarint(q, last_type, last_type_len);
  }
  q -= types_size;
  CopyText(q, middle.bytes.data(), types_size);
  *--q = first_type;
  *--q = 0;
  *--q = static_cast<uint8_t>(header);
  q -= rowid_len;
  PutVarint(q, static_cast<uint64_t>(rowid), rowid_len);
  if (__builtin_expect(payload_len == 1, 1)) {
    *--q = static_cast<uint8_t>(payload);
  } else {
    q -= payload_len;
    PutVarint(q, payload, payload_len);
  }
  EndCell(t, rowid, q, size, direct);
}

void SqliteTableAppender::SealLeaf(Tree& t) {
  FinishLeaf(t.leaf, t.leaf_cells, t.leaf_content);
  if (t.sealed_leaves.empty()) t.first_sealed_dirty = t.leaf_dirty;
  t.sealed_leaves.push_back({t.leaf_pgno, t.leaf_max});
  t.leaf = t.Slot(t.slots++, page_size_);
  buffered_ += page_size_;
  sealed_ = true;
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

}  // namespace roctrace
