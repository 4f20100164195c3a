// An SQLite VFS for a database in a process whose descriptors are not ours:
// a traced program may close every descriptor it did not open (or dup2 over
// them), after which SQLite's own VFS would go on writing through a number
// that may now be one of the program's files.
//
// Its files (the database, its rollback journal) keep their descriptors at
// high numbers (as OutputFile does), and before each operation check that
// the descriptor is still the file they opened (fstat: same device and
// inode); when it is not, the file is opened again by its path and the
// byte-range locks it held are taken again (closing any descriptor of a
// file drops the process's POSIX locks on it: between the program's close
// and the next operation, another process could take the database; a lock
// that cannot be taken again fails the operation). A file that cannot be opened
// again fails the operation with an I/O error (which the writer reports):
// nothing is ever written through a descriptor that is not ours.
//
// Locks are SQLite's unix VFS's (the same bytes, fcntl locks), so readers
// with the default VFS (sqlite3, Python) may open the database while it is
// written. Temporary files (no name) go to the default VFS: open the
// database with `PRAGMA temp_store=MEMORY` to have none.
#ifndef ROCTRACE_WRITERS_FD_SAFE_VFS_H_
#define ROCTRACE_WRITERS_FD_SAFE_VFS_H_

#include <sys/uio.h>

#include <cstdint>

struct sqlite3;
struct sqlite3_file;

namespace roctrace {

// The VFS's name for sqlite3_open_v2, registered on first call (not as the
// default); nullptr when SQLite has no default VFS to build on.
const char* FdSafeVfsName();

// Gives back the blocks reserved past the end of `db`'s main file (its
// writes reserve blocks ahead of them; closing the database gives them back
// too). For a database written to the end whose process may exit without
// closing it. Does nothing for a database of another VFS.
void FdSafeVfsTrim(sqlite3* db);

// Writes `count` pieces back to back from `offset` of `file` (a database's
// main file, as SQLITE_FCNTL_FILE_POINTER gives it) in gathered writes, as
// xWrite writes one buffer: the kernel sees one write of their total, which
// fills larger page-cache folios than a write per piece does (a flush's new
// pages are several runs side by side in the file). SQLite's result code
// (SQLITE_OK, SQLITE_FULL, an I/O error); SQLITE_NOTFOUND, nothing written,
// for a file of another VFS.
int FdSafeVfsWriteGathered(sqlite3_file* file, const iovec* pieces, int count,
                           int64_t offset);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_FD_SAFE_VFS_H_
