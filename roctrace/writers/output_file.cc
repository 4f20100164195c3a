#include "roctrace/writers/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace roctrace {
namespace {

// Reservation steps grow with the file (a quarter of what it holds), so a
// small trace reserves little and a large one calls fallocate rarely.
constexpr uint64_t kMinReserve = 1 << 20;
constexpr uint64_t kMaxReserve = 64 << 20;

// Descriptors from here up: a program's own files take the lowest free
// numbers, so ours are rarely the ones a program that closes descriptors it
// did not open (or dup2s over them) hits.
constexpr int kHighFd = 512;

// Moves `fd` to a high number where there is room (keeps it otherwise).
int MoveHigh(int fd) {
  if (fd < 0 || fd >= kHighFd) return fd;
  const int high = fcntl(fd, F_DUPFD_CLOEXEC, kHighFd);
  if (high < 0) return fd;
  ::close(fd);
  return high;
}

// A write starts on a page boundary: the kernel then fills whole page-cache
// folios from the start of each write call (large ones at a chunk
// boundary) instead of completing the page a previous write ended in.
constexpr uint64_t kPage = ByteBuffer::kAlignment;

}  // namespace

bool OutputFile::Open(const std::string& path) {
  Close();
  fd_ = MoveHigh(
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  size_ = reserved_ = 0;
  can_reserve_ = true;
  buffer_at_ = 0;
  kept_ = 0;
  next_write_ = kChunkBytes;
  path_ = path;
  struct stat st {};
  if (fd_ >= 0 && fstat(fd_, &st) == 0) {
    dev_ = st.st_dev;
    ino_ = st.st_ino;
  }
  return fd_ >= 0;
}

bool OutputFile::StillOurs() {
  struct stat st {};
  if (fstat(fd_, &st) == 0 && st.st_dev == dev_ && st.st_ino == ino_) {
    return true;
  }
  // The program closed our descriptor (its number may now be one of its
  // own files): never write there; open our file again, where we were.
  const int fd = MoveHigh(::open(path_.c_str(), O_WRONLY | O_CLOEXEC));
  if (fd < 0) return false;
  if (fstat(fd, &st) != 0 || st.st_dev != dev_ || st.st_ino != ino_ ||
      lseek(fd, static_cast<off_t>(size_), SEEK_SET) < 0) {
    ::close(fd);
    errno = ESTALE;
    return false;
  }
  fd_ = fd;
  ++reopened_;
  return true;
}

void OutputFile::ReserveFor(uint64_t end) {
  const uint64_t step = std::min(kMaxReserve, std::max(kMinReserve, size_ / 4));
  const uint64_t length = end - reserved_ + step;
  // Not every filesystem can (tmpfs before Linux 6.x, NFS): then writes
  // allocate as they go, as without this.
  if (fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(reserved_),
                static_cast<off_t>(length)) != 0) {
    can_reserve_ = false;
    return;
  }
  reserved_ += length;
}

bool OutputFile::WriteAt(const char* data, size_t n, uint64_t at) {
  while (n > 0) {
    const ssize_t done = ::pwrite(fd_, data, n, static_cast<off_t>(at));
    if (done < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (done == 0) {  // no progress and no error: never loop on it
      errno = EIO;
      return false;
    }
    data += done;
    n -= static_cast<size_t>(done);
    at += static_cast<uint64_t>(done);
  }
  return true;
}

void OutputFile::CutBack(uint64_t size) {
  // Writers hand over whole rows and packets: what of them reached the
  // file is taken back, so the file ends where the last whole write did.
  const int err = errno;
  if (ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    // Nothing more to do: the error reported is the write's.
  }
  errno = err;
}

bool OutputFile::Write(const char* data, size_t n) {
  if (fd_ < 0) {
    errno = EBADF;
    return false;
  }
  if (!StillOurs()) {
    fd_ = -1;  // not ours to close
    return false;
  }
  if (can_reserve_ && size_ + n > reserved_) ReserveFor(size_ + n);
  if (!WriteAt(data, n, size_)) {
    CutBack(size_);
    return false;
  }
  size_ += n;
  return true;
}

bool OutputFile::Write(ByteBuffer* buffer) {
  const size_t size = buffer->size();
  if (size == kept_) return true;  // nothing new
  if (fd_ < 0) {
    errno = EBADF;
    return false;
  }
  if (!StillOurs()) {
    fd_ = -1;  // not ours to close
    return false;
  }
  const uint64_t end = buffer_at_ + size;
  if (can_reserve_ && end > reserved_) ReserveFor(end);
  // From the page that holds the file's end (buffer_at_): its first kept_
  // bytes are written again, from the page cache's copy to itself.
  if (!WriteAt(buffer->data(), size, buffer_at_)) {
    CutBack(size_);
    buffer->clear();
    buffer_at_ = size_;
    kept_ = 0;
    next_write_ = kChunkBytes;
    return false;
  }
  size_ = end;
  const uint64_t page = end / kPage * kPage;
  if (page > buffer_at_) {
    buffer->DropFront(static_cast<size_t>(page - buffer_at_));
    buffer_at_ = page;
  }
  kept_ = buffer->size();
  // The next write ends at the next chunk boundary (so that it starts at
  // one too), at least half a chunk on.
  uint64_t boundary = (end / kChunkBytes + 1) * kChunkBytes;
  if (boundary - end < kChunkBytes / 2) boundary += kChunkBytes;
  next_write_ = static_cast<size_t>(boundary - buffer_at_);
  return true;
}

void OutputFile::Close() {
  if (fd_ < 0) return;
  // A descriptor the program took over is not ours to truncate or close.
  if (!StillOurs()) {
    fd_ = -1;
    return;
  }
  // Truncating at the file's own size frees the blocks reserved past it.
  if (reserved_ > size_) {
    if (ftruncate(fd_, static_cast<off_t>(size_)) != 0) {
      // The data is intact; only the reservation stays allocated.
    }
  }
  ::close(fd_);
  fd_ = -1;
}

}  // namespace roctrace
