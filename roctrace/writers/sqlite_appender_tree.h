// The appender's state of each table's b-tree and of one Flush, shared by
// the files that implement SqliteTableAppender: sqlite_table_appender.cc
// (opening, publishing), sqlite_leaf_cells.cc (rows into leaf cells) and
// sqlite_btree_path.cc (the right-most path's pages at a Flush).
#ifndef ROCTRACE_WRITERS_SQLITE_APPENDER_TREE_H_
#define ROCTRACE_WRITERS_SQLITE_APPENDER_TREE_H_

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "roctrace/writers/sqlite_file_format.h"
#include "roctrace/writers/sqlite_table_appender.h"

namespace roctrace {

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
  // The columns AppendInline's kFixed names whose values have no bytes
  // (types 8 and 9), as set from a row; 0 when any has bytes.
  uint32_t fixed;
  // fixed | the row's column count << 16, as set: AppendInline's one test
  // of both (a layout is only set from rows of the table's column count).
  uint32_t shape;
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
  // AppendAroundMiddle's last first value (a call's rows share their event
  // id) and its serial type and size; INT64_MIN's to start with.
  int64_t around_first = INT64_MIN;
  uint8_t around_first_type = 6;
  uint8_t around_first_size = 8;
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
  // WriteNewPages' lists, kept for their capacity.
  std::vector<Run> pieces;
  std::vector<iovec> iov;
};

namespace sqlite_format {

// Bytes a cell's encoding may store below its first byte (then overwritten
// by the cell below it, or zeroed with the page's free space). The argument
// rows' inline encoder stores up to 48 below a cell, within the room it
// checks for itself.
constexpr size_t kCellSlack = 8;

// A leaf's cell count and content offset in its header, its free space
// (between the cell pointers and the cells) zeroed: the page's bytes are
// all defined without clearing a whole page per leaf.
inline void FinishLeaf(uint8_t* page, uint32_t cells, uint32_t content) {
  Put2(page + 3, cells);
  Put2(page + 5, content == 65536 ? 0 : content);
  const uint32_t free_from = kLeafHeader + 2 * cells;
  std::memset(page + free_from, 0, content - free_from);
}

}  // namespace sqlite_format
}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_SQLITE_APPENDER_TREE_H_
