// An output file written in chunks with blocks reserved ahead: the data
// reads back whole, the file's size is the data's, and what was reserved
// past the end is given back at close.
#include "roctrace/writers/output_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <string>

namespace roctrace {
namespace {

TEST(OutputFile, DataReadsBackAndReservationIsGivenBack) {
  char dir[] = "/tmp/output_file_test_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/out";
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

TEST(OutputFile, UnwritablePathAndWritesWithoutAFileFail) {
  OutputFile file;
  EXPECT_FALSE(file.Open("/nonexistent_dir_for_output_file_test/out"));
  EXPECT_FALSE(file.is_open());
  EXPECT_FALSE(file.Write("x", 1));
}

}  // namespace
}  // namespace roctrace
