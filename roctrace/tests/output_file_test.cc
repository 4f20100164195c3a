// An output file written in chunks with blocks reserved ahead: the data
// reads back whole, the file's size is the data's, and what was reserved
// past the end is given back at close.
#include "roctrace/writers/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
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

TEST(OutputFile, UnwritablePathAndWritesWithoutAFileFail) {
  OutputFile file;
  EXPECT_FALSE(file.Open("/nonexistent_dir_for_output_file_test/out"));
  EXPECT_FALSE(file.is_open());
  EXPECT_FALSE(file.Write("x", 1));
}

}  // namespace
}  // namespace roctrace
