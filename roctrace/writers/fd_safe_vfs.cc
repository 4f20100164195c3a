#include "roctrace/writers/fd_safe_vfs.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <mutex>
#include <string>

namespace roctrace {
namespace {

constexpr char kName[] = "roctrace-fdsafe";
// As OutputFile: a program's own files take the lowest free numbers.
constexpr int kHighFd = 512;

// SQLite's lock bytes (its default pending byte, as the unix VFS uses).
constexpr off_t kPendingByte = 0x40000000;
constexpr off_t kReservedByte = kPendingByte + 1;
constexpr off_t kSharedFirst = kPendingByte + 2;
constexpr off_t kSharedSize = 510;

// The main database's blocks are reserved ahead of its writes, in steps that
// grow with the file (a quarter of it, 1 to 64 MiB), as OutputFile does:
// the kernel's cost of a buffered write that extends a file is mostly per
// page and per block, and a reserved block takes its allocation off the
// write path. Reserved blocks past the data are given back at close.
constexpr int64_t kMinReserve = 1 << 20;
constexpr int64_t kMaxReserve = 64 << 20;

sqlite3_vfs* g_base = nullptr;  // the default VFS, for what is not files
sqlite3_vfs g_vfs{};

struct File {
  sqlite3_file base;  // first: SQLite sees a File as an sqlite3_file
  int fd;
  std::string* path;  // owned; a plain pointer: SQLite zero-fills the struct
  dev_t dev;
  ino_t ino;
  int lock;    // SQLITE_LOCK_*
  bool locks;  // the main database: lock bytes in use
  bool delete_on_close;
  bool reserve;      // the main database, on a filesystem that can
  int64_t reserved;  // bytes from offset 0 with blocks reserved
};

// Reserves blocks up to past `end` when a write would pass the reservation.
void ReserveFor(File* f, int64_t end) {
  if (!f->reserve || end <= f->reserved) return;
  const int64_t step = std::min(kMaxReserve, std::max(kMinReserve, end / 4));
  // Not every filesystem can (tmpfs before Linux 6.x, NFS): then writes
  // allocate as they go.
  if (fallocate(f->fd, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(f->reserved),
                static_cast<off_t>(end + step - f->reserved)) != 0) {
    f->reserve = false;
    return;
  }
  f->reserved = end + step;
}

int MoveHigh(int fd) {
  if (fd < 0 || fd >= kHighFd) return fd;
  const int high = fcntl(fd, F_DUPFD_CLOEXEC, kHighFd);
  if (high < 0) return fd;
  ::close(fd);
  return high;
}

bool SetLock(int fd, short type, off_t start, off_t len) {
  struct flock l {};
  l.l_type = type;
  l.l_whence = SEEK_SET;
  l.l_start = start;
  l.l_len = len;
  return fcntl(fd, F_SETLK, &l) == 0;
}

// Takes again the locks that a lock level holds (after a reopen).
bool Relock(File* f) {
  const int level = f->lock;
  if (level >= SQLITE_LOCK_SHARED && level != SQLITE_LOCK_EXCLUSIVE &&
      !SetLock(f->fd, F_RDLCK, kSharedFirst, kSharedSize)) {
    return false;
  }
  // RESERVED is on the way to PENDING for a writer (harmless otherwise).
  if (level >= SQLITE_LOCK_RESERVED &&
      !SetLock(f->fd, F_WRLCK, kReservedByte, 1)) {
    return false;
  }
  if (level >= SQLITE_LOCK_PENDING &&
      !SetLock(f->fd, F_WRLCK, kPendingByte, 1)) {
    return false;
  }
  return level != SQLITE_LOCK_EXCLUSIVE ||
         SetLock(f->fd, F_WRLCK, kSharedFirst, kSharedSize);
}

// Whether f->fd is still our file; reopens it by path when the program took
// the number (never closing that number: it is the program's now).
bool Ensure(File* f) {
  struct stat st {};
  if (f->fd >= 0 && fstat(f->fd, &st) == 0 && st.st_dev == f->dev &&
      st.st_ino == f->ino) {
    return true;
  }
  f->fd = -1;
  const int fd = MoveHigh(::open(f->path->c_str(), O_RDWR | O_CLOEXEC));
  if (fd < 0) return false;
  if (fstat(fd, &st) != 0 || st.st_dev != f->dev || st.st_ino != f->ino) {
    ::close(fd);
    return false;
  }
  f->fd = fd;
  if (f->locks && !Relock(f)) {
    // Another process took the lock meanwhile: what we were doing under it
    // is no longer safe.
    f->lock = SQLITE_LOCK_NONE;
    return false;
  }
  return true;
}

// Truncating at the file's own size frees the blocks reserved past it.
void GiveBackReserved(File* f, off_t size) {
  if (f->reserved <= size) return;
  if (ftruncate(f->fd, size) == 0) f->reserved = size;
  // Otherwise the data is intact; only the reservation stays allocated.
}

int Close(sqlite3_file* file) {
  File* f = reinterpret_cast<File*>(file);
  if (f->fd >= 0) {
    struct stat st {};
    // Not ours any more: not ours to close.
    if (fstat(f->fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino) {
      GiveBackReserved(f, st.st_size);
      ::close(f->fd);
    }
  }
  f->fd = -1;
  if (f->delete_on_close && f->path != nullptr) unlink(f->path->c_str());
  delete f->path;
  f->path = nullptr;
  return SQLITE_OK;
}

int Read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset) {
  File* f = reinterpret_cast<File*>(file);
  if (!Ensure(f)) return SQLITE_IOERR_READ;
  char* out = static_cast<char*>(buffer);
  size_t done = 0;
  while (done < static_cast<size_t>(amount)) {
    const ssize_t n = pread(f->fd, out + done, amount - done,
                            static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return SQLITE_IOERR_READ;
    }
    if (n == 0) {
      // SQLite expects the rest zeroed on a short read.
      std::memset(out + done, 0, amount - done);
      return SQLITE_IOERR_SHORT_READ;
    }
    done += static_cast<size_t>(n);
  }
  return SQLITE_OK;
}

// The result for a failed write call.
int WriteError() {
  return errno == ENOSPC || errno == EFBIG ? SQLITE_FULL : SQLITE_IOERR_WRITE;
}

int Write(sqlite3_file* file, const void* buffer, int amount,
          sqlite3_int64 offset) {
  File* f = reinterpret_cast<File*>(file);
  if (!Ensure(f)) return SQLITE_IOERR_WRITE;
  ReserveFor(f, offset + amount);
  const char* in = static_cast<const char*>(buffer);
  size_t done = 0;
  while (done < static_cast<size_t>(amount)) {
    const ssize_t n = pwrite(f->fd, in + done, amount - done,
                             static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return WriteError();
    }
    done += static_cast<size_t>(n);
  }
  return SQLITE_OK;
}

int WriteGathered(File* f, const iovec* pieces, int count, int64_t offset) {
  if (!Ensure(f)) return SQLITE_IOERR_WRITE;
  int64_t total = 0;
  for (int i = 0; i < count; ++i)
    total += static_cast<int64_t>(pieces[i].iov_len);
  ReserveFor(f, offset + total);
  // A short write leaves the rest for the next call: a copy of the pieces
  // not yet whole, the first one advanced.
  iovec rest[IOV_MAX];
  int at = 0;
  size_t skip = 0;  // bytes of pieces[at] already written
  while (at < count) {
    const int n = std::min(count - at, IOV_MAX);
    for (int i = 0; i < n; ++i) rest[i] = pieces[at + i];
    rest[0].iov_base = static_cast<char*>(rest[0].iov_base) + skip;
    rest[0].iov_len -= skip;
    ssize_t written = pwritev(f->fd, rest, n, static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) continue;
      return WriteError();
    }
    if (written == 0) return SQLITE_IOERR_WRITE;  // no progress: not a file
    offset += written;
    // Past the pieces written whole.
    while (at < count && written > 0) {
      const size_t left = pieces[at].iov_len - skip;
      if (static_cast<size_t>(written) < left) {
        skip += static_cast<size_t>(written);
        written = 0;
      } else {
        written -= static_cast<ssize_t>(left);
        skip = 0;
        ++at;
      }
    }
    while (at < count && pieces[at].iov_len == 0) ++at;
  }
  return SQLITE_OK;
}

int Truncate(sqlite3_file* file, sqlite3_int64 size) {
  File* f = reinterpret_cast<File*>(file);
  if (!Ensure(f) || ftruncate(f->fd, static_cast<off_t>(size)) != 0) {
    return SQLITE_IOERR_TRUNCATE;
  }
  // What was reserved past the new end is free again.
  f->reserved = std::min<int64_t>(f->reserved, size);
  return SQLITE_OK;
}

int Sync(sqlite3_file* file, int) {
  File* f = reinterpret_cast<File*>(file);
  if (!Ensure(f) || fdatasync(f->fd) != 0) return SQLITE_IOERR_FSYNC;
  return SQLITE_OK;
}

int FileSize(sqlite3_file* file, sqlite3_int64* size) {
  File* f = reinterpret_cast<File*>(file);
  struct stat st {};
  if (!Ensure(f) || fstat(f->fd, &st) != 0) return SQLITE_IOERR_FSTAT;
  *size = st.st_size;
  return SQLITE_OK;
}

// The unix VFS's protocol: SHARED is a read lock on the shared range (taken
// under a read lock of the pending byte, so that a writer waiting for
// EXCLUSIVE holds new readers off), RESERVED a write lock on its byte,
// PENDING a write lock on the pending byte, EXCLUSIVE a write lock on the
// shared range.
int Lock(sqlite3_file* file, int level) {
  File* f = reinterpret_cast<File*>(file);
  if (!f->locks) {
    f->lock = std::max(f->lock, level);
    return SQLITE_OK;
  }
  if (f->lock >= level) return SQLITE_OK;
  if (!Ensure(f)) return SQLITE_IOERR_LOCK;
  if (level == SQLITE_LOCK_SHARED) {
    if (!SetLock(f->fd, F_RDLCK, kPendingByte, 1)) return SQLITE_BUSY;
    const bool ok = SetLock(f->fd, F_RDLCK, kSharedFirst, kSharedSize);
    SetLock(f->fd, F_UNLCK, kPendingByte, 1);
    if (!ok) return SQLITE_BUSY;
    f->lock = SQLITE_LOCK_SHARED;
    return SQLITE_OK;
  }
  if (level == SQLITE_LOCK_RESERVED) {
    if (!SetLock(f->fd, F_WRLCK, kReservedByte, 1)) return SQLITE_BUSY;
    f->lock = SQLITE_LOCK_RESERVED;
    return SQLITE_OK;
  }
  // PENDING, and EXCLUSIVE through it.
  if (f->lock < SQLITE_LOCK_PENDING) {
    if (!SetLock(f->fd, F_WRLCK, kPendingByte, 1)) return SQLITE_BUSY;
    f->lock = SQLITE_LOCK_PENDING;
  }
  if (level == SQLITE_LOCK_EXCLUSIVE) {
    if (!SetLock(f->fd, F_WRLCK, kSharedFirst, kSharedSize)) {
      return SQLITE_BUSY;
    }
    f->lock = SQLITE_LOCK_EXCLUSIVE;
  }
  return SQLITE_OK;
}

int Unlock(sqlite3_file* file, int level) {
  File* f = reinterpret_cast<File*>(file);
  if (!f->locks) {
    f->lock = std::min(f->lock, level);
    return SQLITE_OK;
  }
  if (f->lock <= level) return SQLITE_OK;
  if (!Ensure(f)) {
    // The program's close dropped every lock already.
    f->lock = level;
    return SQLITE_OK;
  }
  if (level == SQLITE_LOCK_SHARED) {
    if (f->lock == SQLITE_LOCK_EXCLUSIVE &&
        !SetLock(f->fd, F_RDLCK, kSharedFirst, kSharedSize)) {
      return SQLITE_IOERR_RDLOCK;
    }
    SetLock(f->fd, F_UNLCK, kPendingByte, 2);  // pending and reserved
  } else {
    SetLock(f->fd, F_UNLCK, kPendingByte, 2 + kSharedSize);
  }
  f->lock = level;
  return SQLITE_OK;
}

int CheckReservedLock(sqlite3_file* file, int* out) {
  File* f = reinterpret_cast<File*>(file);
  *out = 0;
  if (f->lock >= SQLITE_LOCK_RESERVED) {
    *out = 1;
    return SQLITE_OK;
  }
  if (!f->locks) return SQLITE_OK;
  if (!Ensure(f)) return SQLITE_IOERR_CHECKRESERVEDLOCK;
  struct flock l {};
  l.l_type = F_WRLCK;
  l.l_whence = SEEK_SET;
  l.l_start = kReservedByte;
  l.l_len = 1;
  if (fcntl(f->fd, F_GETLK, &l) != 0) return SQLITE_IOERR_CHECKRESERVEDLOCK;
  *out = l.l_type != F_UNLCK;
  return SQLITE_OK;
}

int FileControl(sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; }
int SectorSize(sqlite3_file*) { return 4096; }
int DeviceCharacteristics(sqlite3_file*) {
  return SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

// Version 1: no shared memory (no WAL), no memory mapping.
sqlite3_io_methods MakeMethods() {
  sqlite3_io_methods m{};
  m.iVersion = 1;
  m.xClose = Close;
  m.xRead = Read;
  m.xWrite = Write;
  m.xTruncate = Truncate;
  m.xSync = Sync;
  m.xFileSize = FileSize;
  m.xLock = Lock;
  m.xUnlock = Unlock;
  m.xCheckReservedLock = CheckReservedLock;
  m.xFileControl = FileControl;
  m.xSectorSize = SectorSize;
  m.xDeviceCharacteristics = DeviceCharacteristics;
  return m;
}
const sqlite3_io_methods kMethods = MakeMethods();

int Open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags,
         int* out_flags) {
  if (name == nullptr) {
    return g_base->xOpen(g_base, name, file, flags, out_flags);
  }
  File* f = reinterpret_cast<File*>(file);
  f->base.pMethods = nullptr;
  f->fd = -1;
  int oflags = O_CLOEXEC;
  oflags |= (flags & SQLITE_OPEN_READWRITE) ? O_RDWR : O_RDONLY;
  if (flags & SQLITE_OPEN_CREATE) oflags |= O_CREAT;
  if (flags & SQLITE_OPEN_EXCLUSIVE) oflags |= O_EXCL;
  const int fd = MoveHigh(::open(name, oflags, 0644));
  if (fd < 0) return SQLITE_CANTOPEN;
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    ::close(fd);
    return SQLITE_CANTOPEN;
  }
  f->path = new std::string(name);
  f->fd = fd;
  f->dev = st.st_dev;
  f->ino = st.st_ino;
  f->lock = SQLITE_LOCK_NONE;
  f->locks = (flags & SQLITE_OPEN_MAIN_DB) != 0;
  f->delete_on_close = (flags & SQLITE_OPEN_DELETEONCLOSE) != 0;
  f->reserve = f->locks;
  f->reserved = 0;
  f->base.pMethods = &kMethods;
  if (out_flags != nullptr) *out_flags = flags;
  return SQLITE_OK;
}

int Delete(sqlite3_vfs*, const char* name, int) {
  if (unlink(name) != 0) {
    return errno == ENOENT ? SQLITE_IOERR_DELETE_NOENT : SQLITE_IOERR_DELETE;
  }
  return SQLITE_OK;
}

int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  struct stat st {};
  switch (flags) {
    case SQLITE_ACCESS_EXISTS:
      // As the unix VFS: an empty file (a journal being created) is none.
      *out = stat(name, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > 0);
      break;
    case SQLITE_ACCESS_READ:
      *out = access(name, R_OK) == 0;
      break;
    default:  // SQLITE_ACCESS_READWRITE
      *out = access(name, R_OK | W_OK) == 0;
      break;
  }
  return SQLITE_OK;
}

int FullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return g_base->xFullPathname(g_base, name, n, out);
}
void* DlOpen(sqlite3_vfs*, const char* name) {
  return g_base->xDlOpen(g_base, name);
}
void DlError(sqlite3_vfs*, int n, char* out) {
  g_base->xDlError(g_base, n, out);
}
void (*DlSym(sqlite3_vfs*, void* handle, const char* name))(void) {
  return g_base->xDlSym(g_base, handle, name);
}
void DlClose(sqlite3_vfs*, void* handle) { g_base->xDlClose(g_base, handle); }
int Randomness(sqlite3_vfs*, int n, char* out) {
  return g_base->xRandomness(g_base, n, out);
}
int Sleep(sqlite3_vfs*, int us) { return g_base->xSleep(g_base, us); }
int CurrentTime(sqlite3_vfs*, double* out) {
  return g_base->xCurrentTime(g_base, out);
}
int GetLastError(sqlite3_vfs*, int, char*) { return errno; }
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
  if (g_base->iVersion >= 2 && g_base->xCurrentTimeInt64 != nullptr) {
    return g_base->xCurrentTimeInt64(g_base, out);
  }
  double days = 0;
  const int rc = g_base->xCurrentTime(g_base, &days);
  *out = static_cast<sqlite3_int64>(days * 86400000.0);
  return rc;
}

}  // namespace

const char* FdSafeVfsName() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    g_base = sqlite3_vfs_find(nullptr);
    if (g_base == nullptr) return;
    g_vfs.iVersion = 2;
    // Temporary files are the default VFS's: room for either kind.
    g_vfs.szOsFile = std::max<int>(sizeof(File), g_base->szOsFile);
    g_vfs.mxPathname = g_base->mxPathname;
    g_vfs.zName = kName;
    g_vfs.xOpen = Open;
    g_vfs.xDelete = Delete;
    g_vfs.xAccess = Access;
    g_vfs.xFullPathname = FullPathname;
    g_vfs.xDlOpen = DlOpen;
    g_vfs.xDlError = DlError;
    g_vfs.xDlSym = DlSym;
    g_vfs.xDlClose = DlClose;
    g_vfs.xRandomness = Randomness;
    g_vfs.xSleep = Sleep;
    g_vfs.xCurrentTime = CurrentTime;
    g_vfs.xGetLastError = GetLastError;
    g_vfs.xCurrentTimeInt64 = CurrentTimeInt64;
    ok = sqlite3_vfs_register(&g_vfs, 0) == SQLITE_OK;
  });
  return ok ? kName : nullptr;
}

void FdSafeVfsTrim(sqlite3* db) {
  sqlite3_file* file = nullptr;
  if (db == nullptr ||
      sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) !=
          SQLITE_OK ||
      file == nullptr || file->pMethods != &kMethods) {
    return;
  }
  File* f = reinterpret_cast<File*>(file);
  struct stat st {};
  if (f->reserved > 0 && Ensure(f) && fstat(f->fd, &st) == 0) {
    GiveBackReserved(f, st.st_size);
  }
}

int FdSafeVfsWriteGathered(sqlite3_file* file, const iovec* pieces, int count,
                           int64_t offset) {
  if (file == nullptr || file->pMethods != &kMethods) return SQLITE_NOTFOUND;
  return WriteGathered(reinterpret_cast<File*>(file), pieces, count, offset);
}

}  // namespace roctrace
