// rocprofv3's trace CSVs: <prefix>_hip_api_trace.csv, _hsa_api_trace.csv,
// _marker_api_trace.csv, _kernel_trace.csv, _memory_copy_trace.csv, each
// created with its header when the first row of its domain arrives; and
// roctrace's own _kfd_api_trace.csv for libhsakmt calls (KFD_API), which no
// rocprofv3 file holds.
#ifndef ROCTRACE_WRITERS_CSV_WRITER_H_
#define ROCTRACE_WRITERS_CSV_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "roctrace/writers/byte_buffer.h"
#include "roctrace/writers/event.h"
#include "roctrace/writers/output_file.h"

namespace roctrace {

class CsvWriter : public Writer {
 public:
  explicit CsvWriter(std::string path_prefix);
  ~CsvWriter() override;
  void Write(const ApiEvent& event) override;
  void WriteAll(const ApiEvent* begin, const ApiEvent* end) override;
  void Checkpoint() override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // The file name suffix rocprofv3 gives a domain's API trace.
  static const char* TraceSuffix(Category category);
  // The file of KFD_API rows (libhsakmt calls, HSA-category events).
  static constexpr const char* kKfdTraceSuffix = "_kfd_api_trace.csv";
  // The file's header row: API columns, or the kernel / copy trace's.
  static const char* Header(Category category);

 private:
  // Write's body, inlined into Write and WriteAll.
  inline void WriteOne(const ApiEvent& e);
  // Files by slot: a category's, or kKfdSlot.
  static constexpr int kKfdSlot = kCategoryCount;
  static constexpr int kSlots = kCategoryCount + 1;
  static int SlotOf(const OpName& op);
  // The slot's file, created with its header on first use; nullptr when it
  // cannot be.
  OutputFile* FileFor(int slot);
  void Flush(int category);
  void WriteDevice(const ApiEvent& e, std::string* out);
  __attribute__((noinline)) void AppendDeviceRow(const ApiEvent& e, int c);
  // Appends numbers that change slowly from row to row: all but their last
  // kLow digits (2 or 4) are nearly always those of the previous number,
  // so they are formatted once and copied, and only kLow digits per number
  // are made. Timestamps keep 4 (they change every 10 us), the calls'
  // correlation IDs 2 (they count up by one or a few a row: the copied
  // digits change every 100 rows).
  template <int kLow>
  class DecimalCache {
   public:
    // Stores up to 24 bytes at `out`; returns the end of the digits.
    char* Append(char* out, uint64_t v);

   private:
    void Remember(uint64_t key);  // formats a new v / 10^kLow

    uint64_t key_ = UINT64_MAX;  // v / 10^kLow
    char text_[24] = {};         // its digits
    size_t length_ = 0;
  };

  // Rows are formatted into one buffer per file and written out in chunks.
  std::string prefix_;
  OutputFile files_by_category_[kSlots];
  bool failed_[kSlots] = {};
  // files_by_category_[c].is_open(), as a row tests it (one byte, not the
  // file's descriptor at its address worked out).
  bool open_[kSlots] = {};
  std::string paths_[kSlots];
  ByteBuffer pending_[kSlots];
  uint64_t pending_rows_[kSlots] = {};  // rows in pending_
  // What a row of a name needs before its numbers, by OpName::index: its
  // file's slot (-1 until its first row), whether it is device work
  // (formatted out of line) and, for an API call, "Domain","Function"
  // quoted. One look-up a row instead of the slot's and the prefix's.
  struct NameRow {
    int8_t slot = -1;
    bool device = false;
    // A prefix of up to kShortPrefix bytes is also kept in `short_prefix`,
    // zero-padded, and copied whole with fixed-size moves (no memcpy call).
    static constexpr size_t kShortPrefix = 64;
    bool is_short = false;
    alignas(16) char short_prefix[kShortPrefix] = {};
    std::string prefix;
  };
  __attribute__((noinline)) NameRow& LearnName(const OpName& op);
  std::vector<NameRow> names_;
  std::vector<std::string> files_;
  // ",pid,tid," of the last thread written (events come in runs per thread).
  uint64_t thread_key_ = UINT64_MAX;
  char thread_text_[24] = {};
  size_t thread_length_ = 0;
  DecimalCache<4> timestamps_;
  DecimalCache<2> correlation_ids_;
};

// Appends `text` to `out` as a CSV field, quoted as rocprofv3 quotes
// strings (inner quotes doubled).
void AppendQuoted(std::string* out, const std::string& text);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_CSV_WRITER_H_
