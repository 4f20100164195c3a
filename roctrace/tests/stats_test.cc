// The statistics writer's summary tables and _domain_stats.csv, read back as
// a rocprofv3 user reads them: rocprofv3's summary domain names (HIP_API,
// HSA_API, MARKER_API, MEMORY_COPY, ...), its table layout, and
// --summary-groups matched against the whole domain name.
#include "roctrace/writers/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"

namespace roctrace {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lines of `text` from the one that holds `title` to the next empty
// line after the table.
std::vector<std::string> TableAfter(const std::string& text,
                                    const std::string& title) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  bool found = false;
  while (std::getline(in, line)) {
    if (!found) {
      found = line == title;
      continue;
    }
    if (line.empty() && !lines.empty()) break;
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

class Events {
 public:
  const OpName* Op(Category c, const std::string& name,
                   const std::string& domain) {
    ops_.push_back(std::make_unique<OpName>());
    OpName* op = ops_.back().get();
    op->category = c;
    op->name = name;
    op->domain = domain;
    op->index = static_cast<uint32_t>(ops_.size() - 1);
    return op;
  }
  void Write(StatsWriter* w, const OpName* op, uint64_t ns) {
    ApiEvent e{};
    e.op = op;
    e.start_ns = 1000;
    e.end_ns = 1000 + ns;
    w->Write(e);
  }

 private:
  std::vector<std::unique_ptr<OpName>> ops_;
};

TEST(Summary, Rocprofv3DomainNamesLayoutAndWholeNameGroups) {
  ScratchDir dir("stats_test");
  const std::string summary = dir.path() + "/summary.txt";
  StatsWriter w(dir.path() + "/run", /*summary=*/true);
  w.SetSummaryOutput(summary, "nsec");
  w.SetSummaryTables(/*per_domain=*/true,
                     {"MEMORY_COPY|HIP_API", "HIP", ".*_API"});
  Events ev;
  const OpName* hip = ev.Op(Category::kHip, "hipMalloc", "HIP_RUNTIME_API_EXT");
  const OpName* hip_c = ev.Op(Category::kHip, "__hipPushCallConfiguration",
                              "HIP_COMPILER_API_EXT");
  const OpName* hsa = ev.Op(Category::kHsa, "hsa_init", "HSA_CORE_API");
  const OpName* amd =
      ev.Op(Category::kHsa, "hsa_amd_memory_pool_allocate", "HSA_AMD_EXT_API");
  const OpName* range =
      ev.Op(Category::kMarker, "outer", "MARKER_CORE_RANGE_API");
  const OpName* copy =
      ev.Op(Category::kMemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY");
  ev.Write(&w, hip, 400);
  ev.Write(&w, hip, 600);
  ev.Write(&w, hip_c, 50);
  ev.Write(&w, hsa, 300);
  ev.Write(&w, amd, 200);
  ev.Write(&w, range, 1100);
  ev.Write(&w, copy, 700);
  testing::internal::CaptureStderr();
  w.Finish(RunInfo{});
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string text = ReadFile(summary);

  // -D: one table per rocprofv3 domain, named as rocprofv3 names them.
  for (const char* d : {"HSA_API", "HIP_API", "MARKER_API", "MEMORY_COPY"}) {
    EXPECT_NE(text.find(std::string("ROCPROFV3 ") + d + " SUMMARY:"),
              std::string::npos)
        << d << "\n"
        << text;
  }
  EXPECT_EQ(text.find("HIP_RUNTIME_API"), std::string::npos) << text;
  EXPECT_EQ(text.find("HSA_AMD_EXT_API"), std::string::npos) << text;
  // The HSA table holds the core and the AMD extension calls.
  std::vector<std::string> hsa_table =
      TableAfter(text, "ROCPROFV3 HSA_API SUMMARY:");
  ASSERT_EQ(hsa_table.size(), 4u) << text;  // header, rule, two rows
  EXPECT_EQ(hsa_table[0].find("| "), 0u);
  EXPECT_NE(hsa_table[0].find("NAME"), std::string::npos);
  EXPECT_NE(hsa_table[0].find("DOMAIN"), std::string::npos);
  EXPECT_NE(hsa_table[0].find("DURATION (nsec)"), std::string::npos);
  EXPECT_NE(hsa_table[0].find("PERCENT (INC)"), std::string::npos);
  EXPECT_EQ(hsa_table[1].find("|-"), 0u);
  EXPECT_EQ(hsa_table[2].find("| hsa_init "), 0u) << hsa_table[2];
  EXPECT_NE(hsa_table[2].find("| HSA_API "), std::string::npos);

  // The docs' group: the whole name, alternatives joined in the title.
  std::vector<std::string> group =
      TableAfter(text, "ROCPROFV3 HIP_API + MEMORY_COPY SUMMARY:");
  ASSERT_EQ(group.size(), 5u) << text;  // hipMalloc, copy, __hip...
  EXPECT_EQ(group[2].find("| hipMalloc "), 0u) << group[2];
  EXPECT_NE(group[2].find("|               2 |            1000 |"),
            std::string::npos)
      << group[2];
  EXPECT_EQ(group[3].find("| MEMORY_COPY_HOST_TO_DEVICE "), 0u) << group[3];
  EXPECT_NE(group[3].find("| MEMORY_COPY "), std::string::npos);
  // "HIP" is in "HIP_API" but is not the whole name: no table, a warning.
  EXPECT_EQ(text.find("ROCPROFV3 HIP SUMMARY"), std::string::npos);
  EXPECT_NE(err.find("'HIP'"), std::string::npos) << err;
  EXPECT_EQ(err.find("MEMORY_COPY|HIP_API"), std::string::npos) << err;
  EXPECT_NE(text.find("ROCPROFV3 HSA_API + HIP_API + MARKER_API SUMMARY:"),
            std::string::npos)
      << text;
  // -S last: every operation.
  std::vector<std::string> all = TableAfter(text, "ROCPROFV3 SUMMARY:");
  ASSERT_EQ(all.size(), 2u + 6u) << text;
  EXPECT_EQ(all[2].find("| outer "), 0u) << all[2];
  EXPECT_NE(all[2].find("| MARKER_API "), std::string::npos);
  EXPECT_LT(text.find("ROCPROFV3 HIP_API SUMMARY:"),
            text.find("ROCPROFV3 HIP_API + MEMORY_COPY SUMMARY:"));
  EXPECT_LT(text.find("ROCPROFV3 HIP_API + MEMORY_COPY SUMMARY:"),
            text.find("ROCPROFV3 SUMMARY:"));

  // _domain_stats.csv: one row per rocprofv3 domain.
  const std::string csv = ReadFile(dir.path() + "/run_domain_stats.csv");
  for (const char* d : {"\"HIP_API\",3,", "\"HSA_API\",2,", "\"MARKER_API\",1,",
                        "\"MEMORY_COPY\",1,"}) {
    EXPECT_NE(csv.find(d), std::string::npos) << d << "\n" << csv;
  }
}

TEST(Summary, UnitsInTheColumnTitlesAndValues) {
  ScratchDir dir("stats_units");
  const std::string summary = dir.path() + "/summary.txt";
  StatsWriter w("", /*summary=*/true);
  w.SetSummaryOutput(summary, "usec");
  Events ev;
  const OpName* hip = ev.Op(Category::kHip, "hipFree", "HIP_RUNTIME_API_EXT");
  ev.Write(&w, hip, 1500);
  ev.Write(&w, hip, 2000);
  w.Finish(RunInfo{});
  const std::vector<std::string> table =
      TableAfter(ReadFile(summary), "ROCPROFV3 SUMMARY:");
  ASSERT_EQ(table.size(), 3u);
  EXPECT_NE(table[0].find("AVERAGE (usec)"), std::string::npos) << table[0];
  // 3.5 us in all, 1.75 on average, 1.5 and 2 at least and most.
  EXPECT_NE(table[2].find("|             3.5 |       1.750e+00 |"),
            std::string::npos)
      << table[2];
  EXPECT_NE(table[2].find("|             1.5 |               2 |"),
            std::string::npos)
      << table[2];
}

// --summary-output-file NAME as rocprofv3 resolves it: beside the other
// outputs, `<prefix>_NAME.txt`; stdout and stderr (any case) are streams.
TEST(Summary, OutputFileIsBesideTheOtherOutputs) {
  EXPECT_EQ(StatsWriter::SummaryPath("/o/host/42", "summary"),
            "/o/host/42_summary.txt");
  EXPECT_EQ(StatsWriter::SummaryPath("/o/run", "sum.txt"),
            "/o/run_sum.txt.txt");
  EXPECT_EQ(StatsWriter::SummaryPath("/o/run", "STDOUT"), "stdout");
  EXPECT_EQ(StatsWriter::SummaryPath("/o/run", "stderr"), "stderr");
  EXPECT_EQ(StatsWriter::SummaryPath("/o/run", ""), "");
  // A NAME with a directory: made when the summary is written.
  ScratchDir dir("stats_path");
  StatsWriter w("", /*summary=*/true);
  const std::string path = StatsWriter::SummaryPath(dir.path() + "/r", "d/s");
  w.SetSummaryOutput(path, "nsec");
  Events ev;
  ev.Write(&w, ev.Op(Category::kHip, "hipFree", "HIP_RUNTIME_API_EXT"), 10);
  w.Finish(RunInfo{});
  EXPECT_NE(ReadFile(dir.path() + "/r_d/s.txt").find("ROCPROFV3 SUMMARY:"),
            std::string::npos);
  EXPECT_EQ(w.Files(), std::vector<std::string>{path});
}

// rocprofv3's _hsa_api_stats.csv counts HSA calls only; libhsakmt calls
// (--kfd-trace, carried with the HSA category) get their own file beside
// their trace, _kfd_api_stats.csv.
TEST(StatsCsv, KfdCallsAreCountedInTheirOwnFileNotTheHsaOne) {
  ScratchDir dir("stats_kfd");
  StatsWriter w(dir.path() + "/run", /*summary=*/false);
  Events ev;
  const OpName* hsa = ev.Op(Category::kHsa, "hsa_init", "HSA_CORE_API");
  const OpName* kfd = ev.Op(Category::kHsa, "hsaKmtOpenKFD", "KFD_API");
  ev.Write(&w, hsa, 300);
  ev.Write(&w, kfd, 40);
  ev.Write(&w, kfd, 60);
  w.Finish(RunInfo{});
  const std::string hsa_csv = ReadFile(dir.path() + "/run_hsa_api_stats.csv");
  EXPECT_NE(hsa_csv.find("\"hsa_init\""), std::string::npos) << hsa_csv;
  EXPECT_EQ(hsa_csv.find("hsaKmtOpenKFD"), std::string::npos) << hsa_csv;
  const std::string kfd_csv = ReadFile(dir.path() + "/run_kfd_api_stats.csv");
  std::istringstream lines(kfd_csv);
  std::string header, row, extra;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_EQ(header.find("\"Name\",\"Calls\",\"TotalDurationNs\""), 0u)
      << kfd_csv;
  EXPECT_EQ(row.find("\"hsaKmtOpenKFD\",2,100,"), 0u) << kfd_csv;
  EXPECT_FALSE(std::getline(lines, extra)) << kfd_csv;
  std::vector<std::string> files = w.Files();
  EXPECT_NE(std::find(files.begin(), files.end(),
                      dir.path() + "/run_kfd_api_stats.csv"),
            files.end());
  // The domain table keeps one row per summary domain.
  const std::string domains = ReadFile(dir.path() + "/run_domain_stats.csv");
  EXPECT_NE(domains.find("\"KFD_API\",2,100,"), std::string::npos) << domains;
  EXPECT_NE(domains.find("\"HSA_API\",1,300,"), std::string::npos) << domains;
}

}  // namespace
}  // namespace roctrace
