// The CSV trace's numbers: every width of decimal, 0 and the largest 64-bit
// values, read back as a CSV reader would (one row per event, rocprofv3's
// columns, the numbers as written).
#include "roctrace/writers/csv_writer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"

namespace roctrace {
namespace {

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CsvWriter, NumbersOfEveryWidthReadBackExactly) {
  const ScratchDir dir("csv_writer_test");
  const std::string prefix = dir / "t";
  OpName name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API_EXT", 0};
  std::vector<uint64_t> values = {0, std::numeric_limits<uint64_t>::max()};
  for (uint64_t p = 1; p != 0 && p <= UINT64_MAX / 10; p *= 10) {
    values.push_back(p - 1);
    values.push_back(p);
    values.push_back(p * 10 - 1);
  }
  {
    CsvWriter writer(prefix);
    for (uint64_t v : values) {
      ApiEvent e{};
      e.op = &name;
      e.pid = static_cast<uint32_t>(v);
      e.tid = static_cast<uint32_t>(v >> 32);
      e.correlation_id = v;
      e.start_ns = v / 3;
      e.end_ns = v;
      writer.Write(e);
    }
    writer.Finish(RunInfo{});
  }
  const std::vector<std::string> lines =
      Lines(prefix + CsvWriter::TraceSuffix(Category::kHip));
  ASSERT_EQ(lines.size(), values.size() + 1);
  EXPECT_EQ(lines[0],
            "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\","
            "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"");
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = values[i];
    std::ostringstream want;
    want << "\"HIP_RUNTIME_API_EXT\",\"hipMemcpy\"," << static_cast<uint32_t>(v)
         << ',' << static_cast<uint32_t>(v >> 32) << ',' << v << ',' << v / 3
         << ',' << v;
    EXPECT_EQ(lines[i + 1], want.str()) << "value " << v;
  }
}

// Timestamps and correlation IDs reuse the previous number's digits above
// their last 4 (formatted once per 10 us of timestamps): rows on both sides
// of such boundaries, numbers under 10^4 and over, and threads taking turns
// (their ",pid,tid," is also formatted once per run of rows).
TEST(CsvWriter, TimestampsAcrossDigitBoundariesAndThreadsInTurn) {
  const ScratchDir dir("csv_writer_test");
  const std::string prefix = dir / "t";
  OpName name{Category::kHsa, "hsa_init", "HSA_CORE_API", 0};
  std::vector<ApiEvent> events;
  uint64_t ts = 86'399'999'999'990ull;  // 10 ns before a 10^8 boundary
  for (int i = 0; i < 64; ++i) {
    ApiEvent e{};
    e.op = &name;
    e.pid = 77;
    e.tid = 77 + static_cast<uint32_t>((i / 3) % 4);
    e.correlation_id = 9'980 + static_cast<uint64_t>(i);
    e.start_ns = ts;
    e.end_ns = ts + 7 + static_cast<uint64_t>(i % 5) * 33'333'333;
    ts = e.end_ns + (i % 7 == 0 ? 99'999'999 : 3);
    events.push_back(e);
  }
  {
    CsvWriter writer(prefix);
    for (const ApiEvent& e : events) writer.Write(e);
    writer.Finish(RunInfo{});
  }
  const std::vector<std::string> lines =
      Lines(prefix + CsvWriter::TraceSuffix(Category::kHsa));
  ASSERT_EQ(lines.size(), events.size() + 1);
  for (size_t i = 0; i < events.size(); ++i) {
    const ApiEvent& e = events[i];
    std::ostringstream want;
    want << "\"HSA_CORE_API\",\"hsa_init\"," << e.pid << ',' << e.tid << ','
         << e.correlation_id << ',' << e.start_ns << ',' << e.end_ns;
    EXPECT_EQ(lines[i + 1], want.str()) << "row " << i;
  }
}

// rocprofv3 1.0.0's scratch memory columns: no allocation size.
TEST(CsvWriter, ScratchMemoryRowsHaveRocprofv3Columns) {
  const ScratchDir dir("csv_writer_test");
  const std::string prefix = dir / "t";
  OpName name{Category::kScratchMemory, "SCRATCH_MEMORY_ALLOC",
              "SCRATCH_MEMORY", 1};
  DeviceWork work{};
  work.device_id = -1;  // no agent named
  work.scratch = ScratchUse{};
  work.scratch.size = 65536;
  work.scratch.flags = 1;
  ApiEvent e{};
  e.op = &name;
  e.tid = 12;
  e.queue_id = 3;
  e.start_ns = 100;
  e.end_ns = 250;
  e.device = &work;
  {
    CsvWriter writer(prefix);
    writer.Write(e);
    writer.Finish(RunInfo{});
  }
  EXPECT_EQ(
      Lines(prefix + CsvWriter::TraceSuffix(Category::kScratchMemory)),
      (std::vector<std::string>{
          "\"Kind\",\"Operation\",\"Agent_Id\",\"Queue_Id\",\"Thread_Id\","
          "\"Alloc_Flags\",\"Start_Timestamp\",\"End_Timestamp\"",
          "\"SCRATCH_MEMORY\",\"SCRATCH_MEMORY_ALLOC\",,3,12,1,100,250"}));
}

// libhsakmt calls (KFD_API, HSA-category events) go to roctrace's own
// file: rocprofv3's _hsa_api_trace.csv holds HSA calls only.
TEST(CsvWriter, KfdRowsAreInAFileOfTheirOwn) {
  const ScratchDir dir("csv_writer_test");
  const std::string prefix = dir / "t";
  OpName hsa{Category::kHsa, "hsa_init", "HSA_CORE_API", 0};
  OpName kfd{Category::kHsa, "hsaKmtOpenKFD", "KFD_API", 1};
  {
    CsvWriter writer(prefix);
    for (const OpName* op : {&hsa, &kfd, &hsa}) {
      ApiEvent e{};
      e.op = op;
      e.pid = 1;
      e.tid = 2;
      writer.Write(e);
    }
    writer.Finish(RunInfo{});
  }
  const std::vector<std::string> hsa_lines =
      Lines(prefix + CsvWriter::TraceSuffix(Category::kHsa));
  ASSERT_EQ(hsa_lines.size(), 3u);
  EXPECT_EQ(hsa_lines[1].find("\"HSA_CORE_API\",\"hsa_init\""), 0u);
  EXPECT_EQ(hsa_lines[2].find("\"HSA_CORE_API\",\"hsa_init\""), 0u);
  const std::vector<std::string> kfd_lines =
      Lines(prefix + "_kfd_api_trace.csv");
  ASSERT_EQ(kfd_lines.size(), 2u);
  EXPECT_EQ(kfd_lines[0], hsa_lines[0]);  // the API trace's columns
  EXPECT_EQ(kfd_lines[1].find("\"KFD_API\",\"hsaKmtOpenKFD\""), 0u);
}

// A row's "Domain","Function" is written whole for names of every length,
// short and long (the writer copies prefixes of up to 64 bytes with
// fixed-size moves, longer ones by their length), quotes doubled, rows of
// different names interleaved.
TEST(CsvWriter, FunctionNamesOfEveryLengthWrittenWhole) {
  const ScratchDir dir("csv_writer_test");
  const std::string prefix = dir / "t";
  std::vector<OpName> names;
  for (uint32_t n = 1; n <= 90; ++n) {
    std::string name = "hip" + std::string(n, 'x');
    if (n % 7 == 0) name[n / 2] = '"';
    names.push_back(OpName{Category::kHip, name, "HIP_RUNTIME_API_EXT", n});
  }
  {
    CsvWriter writer(prefix);
    for (int round = 0; round < 2; ++round) {
      for (size_t i = 0; i < names.size(); ++i) {
        ApiEvent e{};
        e.op = &names[round == 0 ? i : names.size() - 1 - i];
        e.pid = 7;
        e.tid = 8;
        e.correlation_id = 10 + i;
        e.start_ns = 1000;
        e.end_ns = 2000;
        writer.Write(e);
      }
    }
    writer.Finish(RunInfo{});
  }
  const std::vector<std::string> lines =
      Lines(prefix + CsvWriter::TraceSuffix(Category::kHip));
  ASSERT_EQ(lines.size(), 2 * names.size() + 1);
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < names.size(); ++i) {
      const OpName& op = names[round == 0 ? i : names.size() - 1 - i];
      std::string quoted;
      for (char c : op.name) {
        if (c == '"') quoted.push_back('"');
        quoted.push_back(c);
      }
      EXPECT_EQ(lines[1 + round * names.size() + i],
                "\"HIP_RUNTIME_API_EXT\",\"" + quoted + "\",7,8," +
                    std::to_string(10 + i) + ",1000,2000")
          << op.name;
    }
  }
}

}  // namespace
}  // namespace roctrace
