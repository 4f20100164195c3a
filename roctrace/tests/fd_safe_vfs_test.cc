// The database's VFS (writers/fd_safe_vfs.h): a program that dup2s its own
// file over the database's descriptor or closes it neither gets database
// pages nor loses rows, and another process's reader with SQLite's default
// VFS sees the writer's locks.
#include "roctrace/writers/fd_safe_vfs.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string>

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

}  // namespace
}  // namespace roctrace
