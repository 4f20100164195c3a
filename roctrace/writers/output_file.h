// An append-only output file (a CSV, a timeline) written in chunks of a few
// hundred KiB, with its disk blocks reserved ahead of the data.
//
// Why: the kernel's cost of a buffered write here is mostly per 4 KiB page
// and per block (page-cache page, ext4's delayed-allocation reservation), not
// the copy. Reserving blocks in large steps (fallocate, file size unchanged)
// takes the per-block reservation off the write path, and chunks small
// enough to stay in the writer's cache make the copy cheap. What is reserved
// beyond the data is given back at Close; a killed process leaves at most one
// step reserved past its file's end (not part of the file's size).
//
// The program owns the descriptor table: one that closes every descriptor
// it did not open, or dup2s over ours, must neither lose our file nor get
// our data in its own. The descriptor is kept high, and before each write
// the file checks it is still ours (fstat: same device and inode), opening
// its file again by path when it is not.
#ifndef ROCTRACE_WRITERS_OUTPUT_FILE_H_
#define ROCTRACE_WRITERS_OUTPUT_FILE_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace roctrace {

class OutputFile {
 public:
  // What writers stage before writing it out: small enough to stay in a
  // core's L2 cache while it is copied into the page cache, large enough
  // that the kernel's fixed cost per write call (the file's times through
  // the journal) stays small: 1 MiB took a CSV writer's CPU 7-9% below
  // 256 KiB's, 4 MiB 6-15% above it.
  static constexpr size_t kChunkBytes = 1 << 20;

  OutputFile() = default;
  ~OutputFile() { Close(); }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates (truncates) `path`; false with errno set when it cannot.
  bool Open(const std::string& path);
  bool is_open() const { return fd_ >= 0; }
  // Appends all of `data` (short writes retried); false with errno set on
  // an error, the file cut back to where it was before this call (no part
  // of `data` kept).
  bool Write(const char* data, size_t n);
  // Gives back the blocks reserved past the data and closes.
  void Close();
  // Times the file was opened again because the program had closed (or
  // dup2'd over) its descriptor.
  uint64_t reopened() const { return reopened_; }

 private:
  void ReserveFor(uint64_t end);
  // Whether fd_ is still this file (the same device and inode); if the
  // program closed it, reopens the file by its path and goes on at size_
  // (false, errno set, when it cannot).
  bool StillOurs();

  int fd_ = -1;
  std::string path_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  uint64_t reopened_ = 0;
  uint64_t size_ = 0;      // bytes written
  uint64_t reserved_ = 0;  // blocks reserved up to here
  bool can_reserve_ = true;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_OUTPUT_FILE_H_
