// The database's VFS (writers/fd_safe_vfs.h): a program that dup2s its own
// file over the database's descriptor or closes it neither gets database
// pages nor loses rows, and another process's reader with SQLite's default
// VFS sees the writer's locks.
#include "roctrace/writers/fd_safe_vfs.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"

namespace roctrace {
namespace {

class FdSafeVfs : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ / "t.db";
    ASSERT_NE(FdSafeVfsName(), nullptr);
    ASSERT_EQ(sqlite3_open_v2(path_.c_str(), &db_,
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                              FdSafeVfsName()),
              SQLITE_OK);
    Exec(
        "PRAGMA journal_mode=DELETE; PRAGMA temp_store=MEMORY; "
        "CREATE TABLE t(x INTEGER)");
  }
  void TearDown() override {
    if (db_ != nullptr) sqlite3_close(db_);
  }

  int Exec(const std::string& sql) {
    return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  }
  void Insert(int from, int n) {
    ASSERT_EQ(Exec("BEGIN"), SQLITE_OK);
    for (int i = from; i < from + n; ++i) {
      ASSERT_EQ(Exec("INSERT INTO t VALUES (" + std::to_string(i) + ")"),
                SQLITE_OK);
    }
    ASSERT_EQ(Exec("COMMIT"), SQLITE_OK) << sqlite3_errmsg(db_);
  }
  // The descriptor this process holds on `path` (-1: none).
  static int DescriptorOf(const std::string& path) {
    for (int fd = 3; fd < 4096; ++fd) {
      char link[64], target[PATH_MAX];
      std::snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
      const ssize_t n = readlink(link, target, sizeof(target) - 1);
      if (n <= 0) continue;
      target[n] = '\0';
      if (path == target) return fd;
    }
    return -1;
  }
  // Rows as a reader with the default VFS sees them.
  long long Rows() {
    sqlite3* reader = nullptr;
    long long rows = -1;
    if (sqlite3_open_v2(path_.c_str(), &reader, SQLITE_OPEN_READONLY,
                        nullptr) == SQLITE_OK) {
      sqlite3_stmt* s = nullptr;
      if (sqlite3_prepare_v2(reader, "SELECT count(*) FROM t", -1, &s,
                             nullptr) == SQLITE_OK &&
          sqlite3_step(s) == SQLITE_ROW) {
        rows = sqlite3_column_int64(s, 0);
      }
      sqlite3_finalize(s);
    }
    sqlite3_close(reader);
    return rows;
  }

  const ScratchDir dir_{"fd_safe_vfs_test"};
  std::string path_;
  sqlite3* db_ = nullptr;
};

TEST_F(FdSafeVfs, KeepsItsDescriptorHigh) {
  Insert(0, 10);
  EXPECT_GE(DescriptorOf(path_), 512);
}

TEST_F(FdSafeVfs, ADescriptorTakenByTheProgramGetsNoPages) {
  Insert(0, 1000);
  const int ours = DescriptorOf(path_);
  ASSERT_GE(ours, 0);
  const std::string mine = dir_ / "mine.txt";
  const int own = open(mine.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(own, 0);
  ASSERT_EQ(write(own, "mine", 4), 4);
  ASSERT_EQ(dup2(own, ours), ours);  // the program's file at our number
  Insert(1000, 1000);
  struct stat st {};
  ASSERT_EQ(stat(mine.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 4);  // nothing of the database in it
  EXPECT_EQ(Rows(), 2000);
  close(own);
}

TEST_F(FdSafeVfs, ADescriptorClosedByTheProgramIsOpenedAgain) {
  Insert(0, 500);
  const int ours = DescriptorOf(path_);
  ASSERT_GE(ours, 0);
  close(ours);
  Insert(500, 500);
  EXPECT_EQ(Rows(), 1000);
  EXPECT_GE(DescriptorOf(path_), 512);
}

// Bytes the filesystem has allocated to `path`, and its size.
void Usage(const std::string& path, long long* allocated, long long* size) {
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  *allocated = static_cast<long long>(st.st_blocks) * 512;
  *size = st.st_size;
}

// Writes reserve the database's blocks ahead of them; what is reserved past
// its end is given back by FdSafeVfsTrim and at close, the rows intact.
TEST_F(FdSafeVfs, BlocksReservedAheadAreGivenBack) {
  ASSERT_EQ(Exec("CREATE TABLE b(x BLOB)"), SQLITE_OK);
  ASSERT_EQ(Exec("INSERT INTO b VALUES (zeroblob(300000))"), SQLITE_OK);
  Insert(0, 1000);
  long long allocated = 0, size = 0;
  Usage(path_, &allocated, &size);
  if (allocated < size + (512 << 10)) {
    GTEST_SKIP() << "this filesystem reserved nothing (" << allocated
                 << " bytes allocated for " << size << ")";
  }
  FdSafeVfsTrim(db_);
  Usage(path_, &allocated, &size);
  EXPECT_LE(allocated, (size + 4095) / 4096 * 4096);
  EXPECT_EQ(Rows(), 1000);

  Insert(1000, 1000);
  ASSERT_EQ(Exec("INSERT INTO b VALUES (zeroblob(300000))"), SQLITE_OK);
  Usage(path_, &allocated, &size);
  EXPECT_GT(allocated, size + (512 << 10));  // reserved again
  ASSERT_EQ(sqlite3_close(db_), SQLITE_OK);
  db_ = nullptr;
  Usage(path_, &allocated, &size);
  EXPECT_LE(allocated, (size + 4095) / 4096 * 4096);
  EXPECT_EQ(Rows(), 2000);
}

// While this process holds a write transaction (past its first write), a
// reader in another process cannot take the database for writing, and
// after the commit it can. A close by the program drops this process's
// locks until the next file operation (the commit here) takes them again.
TEST_F(FdSafeVfs, AnotherProcessSeesTheLocks) {
  Insert(0, 10);
  auto other_can_write = [this] {
    const pid_t pid = fork();
    if (pid == 0) {
      sqlite3* other = nullptr;
      if (sqlite3_open_v2(path_.c_str(), &other, SQLITE_OPEN_READWRITE,
                          nullptr) != SQLITE_OK) {
        _exit(2);
      }
      const int rc =
          sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr);
      _exit(rc == SQLITE_OK ? 0 : rc == SQLITE_BUSY ? 1 : 3);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  ASSERT_EQ(Exec("BEGIN; INSERT INTO t VALUES (10)"), SQLITE_OK);
  EXPECT_EQ(other_can_write(), 1);
  close(DescriptorOf(path_));  // drops every lock of this process on it
  ASSERT_EQ(Exec("INSERT INTO t VALUES (11)"), SQLITE_OK);
  ASSERT_EQ(Exec("COMMIT"), SQLITE_OK);  // reopens, locks, writes, unlocks
  EXPECT_EQ(other_can_write(), 0);
  EXPECT_EQ(Rows(), 12);
}

// The main file as SQLite holds it.
sqlite3_file* MainFile(sqlite3* db) {
  sqlite3_file* file = nullptr;
  EXPECT_EQ(sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file),
            SQLITE_OK);
  return file;
}

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A gathered write puts its pieces back to back from its offset, past the
// file's end too, through the checked descriptor (a program's dup2 over it
// gets nothing); a file of another VFS is left to the caller.
TEST_F(FdSafeVfs, GatheredWritesLandBackToBack) {
  Insert(0, 10);
  const std::string before = Contents(path_);
  std::string a(5000, 'a'), b(1, 'b'), c(70000, 'c');
  const iovec pieces[] = {
      {&a[0], a.size()}, {&b[0], 0}, {&b[0], b.size()}, {&c[0], c.size()}};
  const int64_t at = static_cast<int64_t>(before.size()) + 4096;
  const std::string mine = dir_ / "mine.txt";
  const int own = open(mine.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(own, 0);
  const int ours = DescriptorOf(path_);
  ASSERT_GE(ours, 0);
  ASSERT_EQ(dup2(own, ours), ours);
  ASSERT_EQ(FdSafeVfsWriteGathered(MainFile(db_), pieces, 4, at), SQLITE_OK);
  const std::string after = Contents(path_);
  ASSERT_EQ(after.size(), static_cast<size_t>(at) + a.size() + 1 + c.size());
  EXPECT_EQ(after.substr(0, before.size()), before);
  EXPECT_EQ(after.substr(at), a + b + c);
  struct stat st {};
  ASSERT_EQ(stat(mine.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 0);
  close(own);

  sqlite3* other = nullptr;
  const std::string path = dir_ / "other.db";
  ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "CREATE TABLE t(x)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  EXPECT_EQ(FdSafeVfsWriteGathered(MainFile(other), pieces, 4, 0),
            SQLITE_NOTFOUND);
  sqlite3_close(other);
}

// A gathered write the file's size limit stops is SQLite's "full", as a
// plain write's.
TEST_F(FdSafeVfs, AGatheredWritePastTheSizeLimitIsFull) {
  Insert(0, 10);
  const std::string before = Contents(path_);
  const pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{before.size() + 8192, before.size() + 8192};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(2);
    std::vector<char> big(64 << 10, 'x');
    const iovec pieces[] = {{big.data(), big.size()}, {big.data(), big.size()}};
    _exit(FdSafeVfsWriteGathered(MainFile(db_), pieces, 2,
                                 static_cast<int64_t>(before.size())) ==
                  SQLITE_FULL
              ? 0
              : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace roctrace
