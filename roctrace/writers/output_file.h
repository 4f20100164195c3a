// An append-only output file (a CSV, a timeline) written in chunks of about
// 1 MiB, with its disk blocks reserved ahead of the data.
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
//
// Writers hand their data over in a ByteBuffer (Write(ByteBuffer*)) that
// keeps the file's last partial page: each write call starts on a page
// boundary, writing those bytes again, and ends where the data ends (whole
// rows, whole packets), normally just past a chunk boundary, so that the
// next one starts on it. The kernel's work per write is then whole folios
// from the start, large ones at a chunk boundary: a fifth to a third less
// system time per byte than writes starting anywhere (measured on ext4).
#ifndef ROCTRACE_WRITERS_OUTPUT_FILE_H_
#define ROCTRACE_WRITERS_OUTPUT_FILE_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "roctrace/writers/byte_buffer.h"

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
  // Appends what `buffer` holds past what the last call left in it, as
  // Write does (the same errors, the file cut back the same way). The
  // buffer then holds the file's last partial page, already in the file:
  // the caller appends after it and hands the same buffer back next time
  // (a file is written one way or the other, never both). On an error the
  // buffer is empty.
  bool Write(ByteBuffer* buffer);
  // The buffer size at which to hand it to Write(ByteBuffer*): about
  // kChunkBytes, the write then ending just past a chunk boundary.
  size_t next_write() const { return next_write_; }
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
  // pwrite of all of `n` bytes at `at` (EINTR and short writes retried).
  bool WriteAt(const char* data, size_t n, uint64_t at);
  // Truncates back to `size` after a failed write (errno kept).
  void CutBack(uint64_t size);

  int fd_ = -1;
  std::string path_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  uint64_t reopened_ = 0;
  uint64_t size_ = 0;      // bytes written
  uint64_t reserved_ = 0;  // blocks reserved up to here
  bool can_reserve_ = true;
  // Write(ByteBuffer*): the file offset of the buffer's first byte (a page
  // boundary) and how many of its bytes are already in the file.
  uint64_t buffer_at_ = 0;
  size_t kept_ = 0;
  size_t next_write_ = kChunkBytes;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_OUTPUT_FILE_H_
