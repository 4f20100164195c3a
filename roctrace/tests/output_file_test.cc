// An output file written in chunks with blocks reserved ahead: the data
// reads back whole, the file's size is the data's, and what was reserved
// past the end is given back at close.
#include "roctrace/writers/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "roctrace/tests/scratch_dir.h"

namespace roctrace {
namespace {

TEST(OutputFile, DataReadsBackAndReservationIsGivenBack) {
  const ScratchDir dir("output_file_test");
  const std::string path = dir / "out";
  std::string want;
  OutputFile file;
  ASSERT_TRUE(file.Open(path));
  // 3 MiB and a bit in uneven chunks: several reservation steps.
  for (int i = 0; want.size() < (3u << 20) + 1234; ++i) {
    std::string chunk(OutputFile::kChunkBytes - 77 * (i % 5),
                      static_cast<char>('a' + i % 26));
    ASSERT_TRUE(file.Write(chunk.data(), chunk.size()));
    want += chunk;
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    // Reserved blocks are not part of the size while writing.
    EXPECT_EQ(static_cast<size_t>(st.st_size), want.size());
  }
  file.Close();
  EXPECT_FALSE(file.is_open());
  std::ifstream in(path, std::ios::binary);
  const std::string got(std::istreambuf_iterator<char>(in), {});
  EXPECT_TRUE(got == want) << "read back " << got.size() << " of "
                           << want.size() << " bytes";
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(static_cast<size_t>(st.st_size), want.size());
  // Allocated: the data rounded to the filesystem's blocks, no reservation.
  EXPECT_LE(static_cast<size_t>(st.st_blocks) * 512, want.size() + 65536);
}

TEST(OutputFile, ADescriptorTheProgramTookOverIsNeverWrittenTo) {
  const ScratchDir dir("output_file_test");
  const std::string path = dir / "out";
  const std::string theirs = dir / "theirs";
  OutputFile file;
  ASSERT_TRUE(file.Open(path));
  ASSERT_TRUE(file.Write("first\n", 6));
  // A program that closes every descriptor it did not open, then opens a
  // file of its own onto the same number.
  int ours = -1;
  for (int fd = 3; fd < 1024; ++fd) {
    struct stat st {
    }, want{};
    if (fstat(fd, &st) == 0 && stat(path.c_str(), &want) == 0 &&
        st.st_ino == want.st_ino && st.st_dev == want.st_dev) {
      ours = fd;
    }
  }
  ASSERT_GE(ours, 0);
  ASSERT_EQ(close(ours), 0);
  const int program = open(theirs.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(program, 0);
  ASSERT_EQ(dup2(program, ours), ours);
  ASSERT_TRUE(file.Write("second\n", 7));
  file.Close();
  EXPECT_EQ(file.reopened(), 1u);
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}),
            "first\nsecond\n");
  std::ifstream other(theirs, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(other), {}), "");
  // The program's descriptor is still open and its own.
  EXPECT_EQ(write(ours, "x", 1), 1);
  close(ours);
  close(program);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

uint64_t SizeOf(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size)
                                      : ~uint64_t{0};
}

// Rows of varying length, as a writer formats them.
void AppendRow(ByteBuffer* buffer, int i, std::string* want) {
  const std::string row = "row," + std::to_string(i) + "," +
                          std::string(static_cast<size_t>(i % 97), 'x') + "\n";
  buffer->Append(row);
  *want += row;
}

TEST(OutputFile, ABufferHandedOverReadsBackWholeAfterEveryWrite) {
  const ScratchDir dir("output_file_test");
  const std::string path = dir / "out";
  OutputFile file;
  ASSERT_TRUE(file.Open(path));
  ByteBuffer buffer;
  std::string want;
  int writes = 0;
  for (int i = 0; want.size() < (5u << 20); ++i) {
    AppendRow(&buffer, i, &want);
    // Chunks as the writers hand them over, and now and then a
    // checkpoint's small write.
    if (buffer.size() >= file.next_write() || i % 9973 == 0) {
      ASSERT_TRUE(file.Write(&buffer));
      ++writes;
      // The file ends where the data handed in ends (whole rows)...
      ASSERT_EQ(SizeOf(path), want.size());
      // ... and the buffer keeps at most its last partial page.
      EXPECT_LT(buffer.size(), ByteBuffer::kAlignment);
      EXPECT_EQ(buffer.size(), want.size() % ByteBuffer::kAlignment);
      // A write with nothing new changes nothing.
      ASSERT_TRUE(file.Write(&buffer));
      ASSERT_EQ(SizeOf(path), want.size());
    }
  }
  ASSERT_TRUE(file.Write(&buffer));
  file.Close();
  EXPECT_GT(writes, 5);
  const std::string got = ReadAll(path);
  EXPECT_TRUE(got == want) << "read back " << got.size() << " of "
                           << want.size() << " bytes";
}

TEST(OutputFile, ChunksEndJustPastAChunkBoundary) {
  const ScratchDir dir("output_file_test");
  const std::string path = dir / "out";
  OutputFile file;
  ASSERT_TRUE(file.Open(path));
  ByteBuffer buffer;
  std::string want;
  for (int i = 0; want.size() < 300000; ++i) AppendRow(&buffer, i, &want);
  ASSERT_TRUE(file.Write(&buffer));  // a checkpoint, anywhere
  for (int i = 0, chunks = 0; chunks < 3; ++i) {
    AppendRow(&buffer, i, &want);
    if (buffer.size() >= file.next_write()) {
      ASSERT_TRUE(file.Write(&buffer));
      ++chunks;
      // Past the boundary by less than the last row.
      EXPECT_LT(want.size() % OutputFile::kChunkBytes, 128u) << want.size();
    }
  }
}

TEST(OutputFile, AFailedBufferWriteLeavesTheLastWholeWrite) {
  const ScratchDir dir("output_file_test");
  const std::string path = dir / "out";
  OutputFile file;
  ASSERT_TRUE(file.Open(path));
  ByteBuffer buffer;
  std::string want;
  // Files may not grow past 2.5 MiB (a write past it fails with EFBIG, as
  // on a full disk); the limit is restored before any assertion.
  struct rlimit old {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const sighandler_t old_handler = signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = old;
  limit.rlim_cur = (5u << 20) / 2;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
  std::string written;
  bool failed = false;
  int error = 0;
  for (int i = 0; !failed && want.size() < (8u << 20); ++i) {
    AppendRow(&buffer, i, &want);
    if (buffer.size() >= file.next_write() || i % 4999 == 0) {
      if (file.Write(&buffer)) {
        written = want;
      } else {
        failed = true;
        error = errno;
      }
    }
  }
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  ASSERT_TRUE(failed);
  EXPECT_EQ(error, EFBIG);
  EXPECT_TRUE(buffer.empty());
  file.Close();
  const std::string got = ReadAll(path);
  EXPECT_TRUE(got == written) << "read back " << got.size() << " bytes, "
                              << written.size() << " written whole";
}

TEST(OutputFile, UnwritablePathAndWritesWithoutAFileFail) {
  OutputFile file;
  EXPECT_FALSE(file.Open("/nonexistent_dir_for_output_file_test/out"));
  EXPECT_FALSE(file.is_open());
  EXPECT_FALSE(file.Write("x", 1));
  ByteBuffer buffer;
  buffer.Append("x", 1);
  EXPECT_FALSE(file.Write(&buffer));
}

}  // namespace
}  // namespace roctrace
