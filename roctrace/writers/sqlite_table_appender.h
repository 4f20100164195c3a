// Rows appended to SQLite rowid tables by writing their b-tree pages
// directly (the public SQLite file format), without SQLite's per-row
// statement and b-tree insert cost. For append-only tables whose rowids the
// caller assigns in strictly increasing order, in a database that SQLite
// (the same connection) keeps writing otherwise: SQLite creates the schema
// and writes every other table.
//
// Rows are laid out in memory as table b-tree leaf cells; Flush() publishes
// them between SQLite transactions under SQLite's own exclusive lock and file
// handle. A process killed at any moment leaves a database that opens and
// reads every row up to the last completed Flush(): new pages are written
// past the database's page count first, then the header's page count, then
// the existing pages of each tree's right-most path in place, one page per
// write, leaves first and the root last, each write taking the tree from one
// valid state to the next. The only transient damage a kill can leave is a
// few pages not yet linked or freed ("never used" to PRAGMA integrity_check).
//
// Requirements, checked by Open(): rollback journal (not WAL), no
// auto-vacuum, mmap off, at most kMaxTables tables, all empty, their first
// column an INTEGER PRIMARY KEY (stored as NULL; the rowid is the id), the
// columns after the ones appended all with a DEFAULT (SQLite reads a short
// record's missing trailing columns as their defaults). 1 to 8 values a row
// (integers, or text through AppendRow); rows never need overflow pages
// (AppendRow refuses a row longer than a page holds). The connection must not
// use locking_mode=EXCLUSIVE: SQLite notices our writes by the header's change
// counter, which it re-reads at the start of each transaction only when it took
// the lock anew.
#ifndef ROCTRACE_WRITERS_SQLITE_TABLE_APPENDER_H_
#define ROCTRACE_WRITERS_SQLITE_TABLE_APPENDER_H_

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace roctrace {

class SqliteTableAppender {
 public:
  static constexpr size_t kMaxColumns = 8;
  static constexpr size_t kMaxTables = 8;  // tables one appender writes
  struct Table {
    std::string name;
    // Integer columns each row gives after the INTEGER PRIMARY KEY (1 to
    // kMaxColumns).
    size_t columns;
  };

  // nullptr with the reason in *error when a requirement above is not met.
  static std::unique_ptr<SqliteTableAppender> Open(
      sqlite3* db, const std::vector<Table>& tables, std::string* error);
  ~SqliteTableAppender();

  // Appends a row to tables[table]: `rowid`, larger than the table's last,
  // and its Table::columns values (another count is an error at Flush).
  template <size_t kColumns>
  void Append(size_t table, int64_t rowid, const int64_t (&values)[kColumns]);
  // The same, inline where sqlite_leaf_cells.h is included (the rocpd
  // writer's event and region rows, two a call, without a call each). Bit
  // i of kFixed: values[i] is the same, 0 or 1, in every row of the table
  // (the region's nid and pid, the event's parent stack): with SQLite's
  // serial types 8 and 9 it has no bytes, so the common row neither checks
  // nor stores it.
  template <size_t kColumns, uint32_t kFixed = 0>
  inline void AppendInline(size_t table, int64_t rowid,
                           const int64_t (&values)[kColumns]);
  // A rowid's varint, encoded once for the rows of several tables that
  // share it (the rocpd writer's event and region rows): its bytes at the
  // top of a little-endian word (the last at byte 7), stored at once.
  // A rowid of 9 bytes has `len` far larger than a page, so the inline
  // row's room check sends it out of line (AppendLong encodes it there).
  struct RowidCode {
    int64_t rowid;
    uint64_t word;
    size_t len;
  };
  static inline RowidCode RowidCodeOf(int64_t rowid);
  template <size_t kColumns, uint32_t kFixed = 0>
  inline void AppendInline(size_t table, const RowidCode& code,
                           const int64_t (&values)[kColumns]);

  // A column value of AppendRow: text (UTF-8, `size` bytes, not copied
  // beyond the call) when `text` is not null, else `integer`.
  struct Value {
    const char* text;
    size_t size;
    int64_t integer;
  };
  static Value Integer(int64_t v) { return {nullptr, 0, v}; }
  static Value Text(const char* s, size_t n) { return {s, n, 0}; }
  // Appends a row of integers and texts (Table::columns values), as
  // Append. A record longer than a page holds without overflow pages (the
  // usable page size less 35 bytes: 4061 of a 4096-byte page) is an error
  // at Flush, and is not written.
  void AppendRow(size_t table, int64_t rowid, const Value* values, size_t n);
  // The same, the column count known when compiled, and which columns are
  // texts: bit i of kTexts for values[i] (kTextsAnywhere: those whose
  // `text` is not null). A row may also give values for the defaulted
  // columns after Table::columns. Instantiated for rocpd_arg's rows
  // (0b11100: 5 values, 0b111100: and extdata).
  static constexpr uint32_t kTextsAnywhere = ~0u;
  template <uint32_t kTexts, size_t kColumns>
  void AppendRow(size_t table, int64_t rowid, const Value (&values)[kColumns]);

  // A row's values after its first, encoded once (EncodeTail) for rows
  // that differ only in their first value (AppendWithTail): a call's
  // argument rows written again for another event. Integers and texts
  // (Value::text not null) as AppendRow stores them.
  struct RowTail {
    uint32_t columns = 0;     // values in the tail
    uint32_t types_size = 0;  // `bytes`: their serial types, then the values
    std::string bytes;
    // The last cell AppendWithTail made of it: the next whose rowid takes
    // as many bytes and whose first value has the same serial type is that
    // cell with its rowid and first value written over.
    std::string cell;
    uint8_t cell_rowid_len = 0;
    uint8_t cell_first_type = 0;
    uint8_t cell_first_size = 0;
    uint8_t cell_payload_len = 0;
    uint32_t cell_first_at = 0;  // the first value's offset in `cell`
    // `cell` again at the end of `cell_words` (AppendWithTailInline copies
    // it in 16-byte words from there, the first one's bytes below the cell
    // inside the array); cell_size 0: not there (too long, or its first
    // value's end within 8 bytes of its start).
    static constexpr size_t kCellWords = 128;
    uint32_t cell_size = 0;
    alignas(16) unsigned char cell_words[kCellWords] = {};
    // A row around these cells (AppendAroundMiddle) whose record header
    // fits a word and whose values fit kAroundValues bytes: the header's
    // bytes (size, NULL key, the first's type as 0, these types, the last's
    // type as 0) in the top `around_header_size` bytes of a little-endian
    // word, stored at once; the values at the end of `around_values`,
    // copied whole (the bytes before them land where the row's first value
    // and header are written next, or in the leaf's free space).
    // around_header_size 0: neither fits.
    static constexpr size_t kAroundValues = 48;
    uint64_t around_header = 0;
    uint8_t around_header_size = 0;
    uint8_t around_values_size = 0;
    alignas(16) unsigned char around_values[kAroundValues];
  };
  void EncodeTail(const Value* values, size_t n, RowTail* tail) const;
  // Appends the row (first, tail's values...) as AppendRow would.
  void AppendWithTail(size_t table, int64_t rowid, int64_t first,
                      RowTail& tail);
  // AppendWithTail's common row, inline (sqlite_leaf_cells.h): the tail's
  // last cell again with its rowid and first value written over, the leaf
  // with room for it. False, nothing appended, for any other row.
  bool AppendWithTailInline(size_t table, int64_t rowid, int64_t first,
                            RowTail& tail);
  // A call's rows again: the cells its rows' tails last made (AppendCall),
  // side by side as a leaf holds them, kept whole, so that a call with the
  // same rows (a repeated call's arguments: same tails, the next rowids, the
  // next event id as the first value) is one copy with each row's rowid and
  // first value written over (AppendCallInline), while the rowids' varints
  // and the first value's serial type keep their widths.
  struct CallImage {
    static constexpr size_t kBytes = 256;
    static constexpr size_t kRows = 16;
    uint32_t rows = 0;  // 0: no image
    uint32_t size = 0;  // bytes of cells, at the end of `bytes`
    // The inline copy's bytes: size rounded up to 16, at least kMinCopy.
    static constexpr size_t kMinCopy = 64;
    uint32_t rounded = 0;
    uint8_t rowid_len = 0;
    uint8_t first_size = 0;
    // Rowids r with r - rowid_lo <= rowid_span (unsigned) have all the
    // call's rowids (r to r + rows - 1) take rowid_len bytes; first values
    // f with f - first_lo <= first_span take the cells' serial type.
    uint64_t rowid_lo = 0;
    uint64_t rowid_span = 0;
    uint64_t first_lo = 0;
    uint64_t first_span = 0;
    uint64_t first_mask = 0;  // the first value's bytes in a word
    struct Row {
      uint16_t cell;       // from the image's start (its lowest cell)
      uint16_t rowid_at;   // the rowid's varint
      uint16_t first_end;  // the first value's last byte, plus one
      // The image's 8 bytes that end there, read as a big-endian number,
      // the first value's bytes cleared: the word is or'ed with the value
      // and stored, not read back from the leaf (a load of bytes the copy
      // and the rowid's stores just wrote waits for them: a fifth of the
      // writer's time, by perf).
      uint64_t first_word;
    };
    Row row[kRows];
    alignas(16) unsigned char bytes[kBytes] = {};
  };
  // Appends n rows (rowid, rowid + 1, ...; first, tails[i]'s values...) as
  // AppendWithTail does, and keeps them in *image when they all landed in
  // one leaf (else leaves it without rows).
  void AppendCall(size_t table, int64_t rowid, int64_t first, RowTail* tails,
                  size_t n, CallImage* image);
  // The image's rows again (sqlite_leaf_cells.h): the leaf with room for
  // them all, the rowids' and first value's widths the image's. False,
  // nothing appended, otherwise.
  inline bool AppendCallInline(size_t table, int64_t rowid, int64_t first,
                               const CallImage& image);
  // Appends the row (first, middle's values..., then `last`: text of
  // `last_size` bytes) as AppendRow would: rows whose middle columns are
  // constants encoded once (a parameter's position, type and name), between
  // an integer and a text that change (the event id, the printed value).
  void AppendAroundMiddle(size_t table, int64_t rowid, int64_t first,
                          const RowTail& middle, const char* last,
                          size_t last_size);
  // The same, inline where sqlite_leaf_cells.h is included (the writers'
  // own files: the rocpd writer's argument rows).
  inline void AppendAroundMiddleInline(size_t table, int64_t rowid,
                                       int64_t first, const RowTail& middle,
                                       const char* last, size_t last_size);

  // Publishes the rows appended since the last Flush (in the order of Open's
  // tables: a kill between two tables' writes leaves the earlier ones
  // complete). Call with no SQLite transaction open on the connection.
  // False with the reason in *error when SQLite or the file refused.
  bool Flush(std::string* error);

  // Bytes of rows waiting for Flush().
  size_t buffered_bytes() const { return buffered_; }

  // Whether a leaf was filled since the last call (buffered_bytes() changed).
  bool TakeSealed() {
    const bool sealed = sealed_;
    sealed_ = false;
    return sealed;
  }
  // Whether a Flush now would end the file on a multiple of `bytes`: the
  // file's pages after the last Flush (or at Open) and the new pages the
  // waiting leaves would take (new interior pages, which a flush makes
  // rarely, and pages SQLite added since are not foreseen). A writer that
  // flushes then writes each flush's new pages from one boundary to the
  // next (fd_safe_vfs.h's gathered write), which the kernel fills with the
  // largest page-cache folios.
  bool FlushEndsOnMultipleOf(size_t bytes) const;

  // The most bytes one write of the file is given. By default 64 KiB:
  // SQLite's unix VFS writes at most 128 KiB a call. A VFS that writes all
  // it is given (fd_safe_vfs.h) may take whole runs of pages: each write
  // call has a fixed cost in the kernel (the file's times, its journal
  // handle), ~11% of the database's CPU at 64 KiB a call.
  void SetMaxWrite(size_t bytes) {
    // Each write's size is passed on as an int.
    constexpr size_t kMost = size_t{1} << 30;
    max_write_ = bytes < page_size_ ? page_size_
                 : bytes > kMost    ? kMost
                                    : bytes;
  }

 private:
  struct Child {
    uint32_t pgno;
    int64_t maxkey;  // the largest rowid under it
  };
  struct Layout;
  struct Tree;
  struct FlushState;

  SqliteTableAppender() = default;
  // Out of line: the append's own code stays small.
  __attribute__((noinline, cold)) void RefuseRow(const Tree& t, int64_t rowid,
                                                 size_t columns);
  __attribute__((noinline, cold)) void RefuseLongRow(const Tree& t,
                                                     size_t payload);
  // AppendAroundMiddle's rows other than the common one (a header longer
  // than a word, a value of 57 bytes or more, a record of 128 or more, a
  // leaf without room for the common row's whole copies) and the rows it
  // refuses.
  __attribute__((noinline)) void AppendAroundMiddleLong(
      size_t table, int64_t rowid, int64_t first, const RowTail& middle,
      const char* last, size_t last_size);
  void SetLayout(Layout& l, const int64_t* values, size_t n,
                 uint32_t fixed = 0) const;
  // AppendInline's rows other than the common one (a new layout, a leaf
  // without room for the cell and its stores' spill, a refused row).
  template <size_t kColumns>
  __attribute__((noinline)) void AppendLong(size_t table, int64_t rowid,
                                            const int64_t (&values)[kColumns],
                                            uint32_t fixed);
  // AppendLong on a copy of the values, made on the slow path only.
  template <size_t kColumns, uint32_t kFixed>
  void AppendLongCopy(size_t table, int64_t rowid,
                      const int64_t (&values)[kColumns]);
  // Every append's start and end: the rowid's varint length; room for a
  // cell of `size` bytes in the right-most leaf (a new leaf when full) and
  // where its encoding ends (in the leaf, or at spill_end when the leaf has
  // no room for the word stores' spill below it); the cell's pointer and
  // the tree's bookkeeping.
  size_t RowidLen(Tree& t, int64_t rowid);
  uint8_t* StartCell(Tree& t, size_t size, uint8_t* spill_end, bool* direct);
  void EndCell(Tree& t, int64_t rowid, const uint8_t* cell, size_t size,
               bool direct);
  void SealLeaf(Tree& t);
  bool FlushTree(Tree& t, FlushState& s);
  void GrowRoot(Tree& t, std::vector<Child> list, size_t level, FlushState& s);
  bool Fits(const Child* c, size_t n) const;
  std::vector<std::vector<Child>> Pack(const Child* c, size_t n) const;
  void BuildInterior(const Child* c, size_t n, uint8_t* page) const;
  uint8_t* NewPage(FlushState& s, uint32_t* pgno) const;
  bool Publish(FlushState& s, std::string* error);
  bool WriteNewPages(FlushState& s);
  bool ReadAt(void* buf, size_t size, int64_t offset);
  bool WriteAt(const void* buf, size_t size, int64_t offset);
  bool Exec(const char* sql, std::string* error);

  sqlite3* db_ = nullptr;
  sqlite3_file* file_ = nullptr;
  uint32_t page_size_ = 0;
  size_t max_write_ = 64 << 10;
  uint32_t usable_ = 0;     // page size less the reserved bytes
  bool small_ints_ = true;  // serial types 8 and 9 (file format >= 4)
  std::vector<std::unique_ptr<Tree>> trees_;
  // trees_'s by table, in the object: an inline append finds its tree
  // with one load, not two.
  Tree* tree_at_[kMaxTables] = {};
  std::vector<uint8_t> header_;  // the database's first 100 bytes
  std::string error_;            // a rowid out of order, reported at Flush
  // A cell encoded here when the leaf has no room below it for the
  // encoding's word stores: the slack, a rowid, the header, the values.
  uint8_t spill_[8 + 9 + 2 + 9 * kMaxColumns + 1];
  // The same for AppendRow's cells, which texts make as long as a page: a
  // page and the slack.
  std::vector<uint8_t> row_spill_;
  size_t buffered_ = 0;
  bool sealed_ = false;      // TakeSealed's
  uint32_t file_pages_ = 0;  // the file's pages after the last Flush
  std::unique_ptr<FlushState>
      flush_;  // buffers kept from one Flush to the next
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_SQLITE_TABLE_APPENDER_H_
