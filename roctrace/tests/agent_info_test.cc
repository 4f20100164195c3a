// Agents as the KFD topology describes them: rocpd_info_agent's row and
// _agent_info.csv read back, from a topology and /proc/cpuinfo written here
// (an APU-less machine: one CPU node, two GPU nodes).
#include "roctrace/writers/agent_info.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tests/sqlite_rows.h"
#include "roctrace/writers/agent_naming.h"
#include "roctrace/writers/csv_writer.h"
#include "roctrace/writers/rocpd_writer.h"

namespace roctrace {
namespace {

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) {
    if (field.size() >= 2 && field.front() == '"') {
      field = field.substr(1, field.size() - 2);
    }
    out.push_back(field);
  }
  return out;
}

class AgentInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string nodes = dir_ / "nodes";
    ASSERT_EQ(mkdir(nodes.c_str(), 0755), 0);
    struct Node {
      int id;
      const char* properties;
      const char* name;
      const char* gpu_id;
    };
    const Node list[] = {
        {0, "cpu_cores_count 16\nsimd_count 0\ncpu_core_id_base 2\n", "\n",
         "0\n"},
        {1,
         "cpu_cores_count 0\nsimd_count 416\nsimd_per_cu 4\n"
         "max_waves_per_simd 8\narray_count 8\nsimd_arrays_per_engine 1\n"
         "gfx_target_version 90010\nvendor_id 4098\ndevice_id 29704\n"
         "unique_id 1234567890123\nfw_version 4294967295\nnum_xcc 1\n"
         "local_mem_size 68702699520\n",
         "aldebaran\n", "53009\n"},
        {2,
         "cpu_cores_count 0\nsimd_count 8\nsimd_per_cu 4\n"
         "gfx_target_version 110001\ndevice_id 29772\n",
         "ip discovery\n", "7\n"}};
    for (const Node& n : list) {
      const std::string node = nodes + "/" + std::to_string(n.id);
      ASSERT_EQ(mkdir(node.c_str(), 0755), 0);
      std::ofstream(node + "/properties") << n.properties;
      std::ofstream(node + "/name") << n.name;
      std::ofstream(node + "/gpu_id") << n.gpu_id;
    }
    // Two processors; the node's cpu_core_id_base names the second.
    std::ofstream(dir_ / "cpuinfo")
        << "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\n"
           "model name\t: Wrong CPU\napicid\t\t: 0\n\n"
           "processor\t: 1\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
           "model name\t: AMD EPYC 7763: 64-Core\napicid\t\t: 2\n\n";
    SetAgentNaming(AgentIndex::kRelative,
                   ReadAgentTopology(nodes, dir_ / "cpuinfo"));
  }
  void TearDown() override {
    SetAgentNaming(AgentIndex::kRelative, ReadAgentTopology("/nonexistent"));
  }
  ScratchDir dir_{"agent_info_test"};
};

TEST_F(AgentInfoTest, DescribedAsRocprofilerSdkDescribesThem) {
  const AgentInfo* cpu = AgentInfoOf({false, 0});
  const AgentInfo* gpu0 = AgentInfoOf({true, 0});
  const AgentInfo* gpu1 = AgentInfoOf({true, 1});
  ASSERT_TRUE(cpu != nullptr && gpu0 != nullptr && gpu1 != nullptr);
  EXPECT_EQ(AgentInfoOf({true, 2}), nullptr);
  EXPECT_EQ(cpu->name, "AMD EPYC 7763: 64-Core");
  EXPECT_EQ(cpu->product_name, cpu->name);
  EXPECT_EQ(cpu->vendor_name, "CPU");
  EXPECT_EQ(gpu0->name, "gfx90a");  // 9, 0, step 10 in hex
  EXPECT_EQ(gpu1->name, "gfx1101");
  EXPECT_EQ(gpu0->vendor_name, "AMD");
  EXPECT_EQ(gpu0->model_name, "aldebaran");
  EXPECT_EQ(gpu1->model_name, "ip discovery");
  EXPECT_EQ(gpu0->gpu_id, 53009u);
  EXPECT_EQ(gpu0->Property("device_id"), 29704u);
}

TEST_F(AgentInfoTest, CsvHasRocprofv3sColumnsAndValues) {
  const std::string prefix = dir_ / "run";
  {
    CsvWriter writer(prefix);
    writer.Finish(RunInfo{});
    EXPECT_EQ(writer.Files(),
              std::vector<std::string>{prefix + "_agent_info.csv"});
  }
  std::ifstream in(prefix + "_agent_info.csv");
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(Split(line));
  ASSERT_EQ(rows.size(), 4u);  // the header, the CPU, two GPUs
  const std::vector<std::string>& header = rows[0];
  ASSERT_EQ(header.size(), 53u);
  auto column = [&header](const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    ADD_FAILURE() << name;
    return size_t{0};
  };
  EXPECT_EQ(header.front(), "Node_Id");
  EXPECT_EQ(header.back(), "Model_Name");
  for (size_t r = 1; r < rows.size(); ++r) {
    // Model names may hold commas; none here.
    ASSERT_EQ(rows[r].size(), 53u) << r;
  }
  const std::vector<std::string>& gpu = rows[2];
  EXPECT_EQ(gpu[column("Node_Id")], "1");
  EXPECT_EQ(gpu[column("Logical_Node_Id")], "1");
  EXPECT_EQ(gpu[column("Agent_Type")], "GPU");
  EXPECT_EQ(gpu[column("Cu_Count")], "104");  // 416 SIMDs, 4 per CU
  EXPECT_EQ(gpu[column("Num_Shader_Banks")], "8");
  EXPECT_EQ(gpu[column("Cu_Per_Engine")], "13");
  EXPECT_EQ(gpu[column("Max_Waves_Per_Cu")], "32");
  EXPECT_EQ(gpu[column("Fw_Version")], "1023");  // its low 10 bits
  EXPECT_EQ(gpu[column("Device_Id")], "29704");
  EXPECT_EQ(gpu[column("Gpu_Id")], "53009");
  EXPECT_EQ(gpu[column("Workgroup_Max_Size")], "1024");
  EXPECT_EQ(gpu[column("Grid_Max_Dim_X")], "2147483647");
  EXPECT_EQ(gpu[column("Name")], "gfx90a");
  EXPECT_EQ(gpu[column("Model_Name")], "aldebaran");
  const std::vector<std::string>& cpu = rows[1];
  EXPECT_EQ(cpu[column("Agent_Type")], "CPU");
  EXPECT_EQ(cpu[column("Cu_Count")], "16");
  EXPECT_EQ(cpu[column("Family_Id")], "25");
  EXPECT_EQ(cpu[column("Vendor_Name")], "CPU");
  EXPECT_EQ(rows[3][column("Node_Id")], "2");
  EXPECT_EQ(rows[3][column("Logical_Node_Id")], "2");
}

TEST_F(AgentInfoTest, RocpdAgentRowsAreFilled) {
  const std::string path = dir_ / "run_results.db";
  {
    RunInfo info;
    info.pid = 1234;
    RocpdWriter writer(path, info);
    OpName copy{Category::kMemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE", "", 0};
    copy.direction = CopyDirection::kHostToDevice;
    ApiEvent e{};
    e.op = &copy;
    e.start_ns = 100;
    e.end_ns = 200;
    e.pid = 1234;
    e.bytes = 64;
    DeviceWork d{};
    d.device_id = 0;
    e.device = &d;
    writer.Write(e);
    writer.Finish(info);
    ASSERT_TRUE(writer.ok());
  }
  const std::vector<std::string> rows =
      SqliteRows(path,
                 "SELECT type, absolute_index, uuid, name, model_name, "
                 "vendor_name, product_name, user_name, "
                 "json_extract(extdata, '$.simd_count') FROM rocpd_info_agent "
                 "ORDER BY type");
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "CPU|0|0|AMD EPYC 7763: 64-Core||CPU|AMD EPYC 7763: "
                      "64-Core|AMD EPYC 7763: 64-Core|0",
                      "GPU|1|29704|gfx90a|aldebaran|AMD|||416"}));
}

}  // namespace
}  // namespace roctrace
