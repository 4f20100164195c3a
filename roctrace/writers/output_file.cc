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

}  // namespace

bool OutputFile::Open(const std::string& path) {
  Close();
  fd_ = MoveHigh(
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  size_ = reserved_ = 0;
  can_reserve_ = true;
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
  const uint64_t before = size_;
  while (n > 0) {
    ssize_t done = ::write(fd_, data, n);
    if (done < 0) {
      if (errno == EINTR) continue;
      // Writers hand over whole rows and packets: what of them reached the
      // file is taken back, so the file ends where the last whole write did.
      const int err = errno;
      if (size_ != before && ftruncate(fd_, static_cast<off_t>(before)) == 0) {
        size_ = before;
      }
      errno = err;
      return false;
    }
    data += done;
    n -= static_cast<size_t>(done);
    size_ += static_cast<uint64_t>(done);
  }
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
