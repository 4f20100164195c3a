#include "roctrace/writers/agent_info.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

namespace roctrace {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string Trim(const std::string& s) {
  const char* space = " \t\n\v\f\r";
  const size_t a = s.find_first_not_of(space);
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(space) - a + 1);
}

// The words of a file joined by single spaces (rocprofiler-sdk's reading of
// the node's `name`).
std::string Words(const std::string& text) {
  std::istringstream in(text);
  std::string word, out;
  while (in >> word) out += (out.empty() ? "" : " ") + word;
  return out;
}

// /proc/cpuinfo's model name and family of the processor with this apicid.
void CpuModel(const std::string& cpuinfo, uint64_t apicid, std::string* name,
              int64_t* family) {
  std::istringstream in(cpuinfo);
  std::string line, model;
  int64_t fam = -1, apic = -1;
  auto finish = [&]() {
    if (apic >= 0 && static_cast<uint64_t>(apic) == apicid && name->empty()) {
      *name = model;
      *family = fam;
    }
    model.clear();
    fam = apic = -1;
  };
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) {
      if (Trim(line).empty()) finish();
      continue;
    }
    const std::string key = Trim(line.substr(0, colon));
    // A model name may itself hold colons: all after the first is the name.
    const std::string value = Trim(line.substr(colon + 1));
    if (key == "model name") model = value;
    if (key == "cpu family") fam = std::strtoll(value.c_str(), nullptr, 10);
    if (key == "apicid") apic = std::strtoll(value.c_str(), nullptr, 10);
  }
  finish();
}

}  // namespace

uint64_t AgentInfo::Property(const char* key) const {
  for (const auto& p : properties) {
    if (p.first == key) return p.second;
  }
  return 0;
}

bool AgentInfo::HasProperty(const char* key) const {
  for (const auto& p : properties) {
    if (p.first == key) return true;
  }
  return false;
}

AgentInfo ReadAgentInfo(const std::string& node_dir, uint32_t node_id, bool gpu,
                        const std::string& cpuinfo) {
  AgentInfo a;
  a.gpu = gpu;
  a.node_id = node_id;
  std::istringstream props(ReadText(node_dir + "/properties"));
  std::string key;
  uint64_t value = 0;
  while (props >> key >> value) a.properties.emplace_back(key, value);
  a.model_name = Words(ReadText(node_dir + "/name"));
  a.gpu_id =
      std::strtoull(Trim(ReadText(node_dir + "/gpu_id")).c_str(), nullptr, 10);
  if (gpu) {
    const uint64_t v = a.Property("gfx_target_version");
    char name[32];
    std::snprintf(name, sizeof(name), "gfx%u%u%x",
                  static_cast<unsigned>((v / 10000) % 100),
                  static_cast<unsigned>((v / 100) % 100),
                  static_cast<unsigned>(v % 100));
    if (v != 0) a.name = name;
    a.vendor_name = "AMD";
  } else {
    a.vendor_name = "CPU";
    int64_t family = -1;
    CpuModel(cpuinfo, a.Property("cpu_core_id_base"), &a.name, &family);
    a.product_name = a.name;
    if (family >= 0) a.properties.emplace_back("family_id", family);
  }
  return a;
}

std::vector<AgentField> AgentFields(const AgentInfo& a) {
  auto p = [&a](const char* key) { return a.Property(key); };
  // Derived as rocprofiler-sdk derives them (the HSA runtime's fixed
  // limits for a GPU's workgroups and grids; firmware versions' low 10
  // bits).
  const uint64_t simd_per_cu = p("simd_per_cu");
  const uint64_t cu_count =
      a.gpu ? (simd_per_cu != 0 ? p("simd_count") / simd_per_cu : 0)
            : p("cpu_cores_count");
  const uint64_t num_xcc = a.HasProperty("num_xcc") ? p("num_xcc") : 1;
  const uint64_t banks = p("simd_arrays_per_engine") != 0
                             ? p("array_count") / p("simd_arrays_per_engine")
                             : 0;
  const uint64_t cu_per_engine = banks != 0 && simd_per_cu != 0
                                     ? (p("simd_count") / simd_per_cu) / banks
                                     : 0;
  const uint64_t workgroup_max = a.gpu ? 1024 : 0;
  const uint64_t grid_max = a.gpu ? std::numeric_limits<uint32_t>::max() : 0;
  return {{"cpu_cores_count", p("cpu_cores_count")},
          {"simd_count", p("simd_count")},
          {"mem_banks_count", p("mem_banks_count")},
          {"caches_count", p("caches_count")},
          {"io_links_count", p("io_links_count")},
          {"cpu_core_id_base", p("cpu_core_id_base")},
          {"simd_id_base", p("simd_id_base")},
          {"max_waves_per_simd", p("max_waves_per_simd")},
          {"lds_size_in_kb", p("lds_size_in_kb")},
          {"gds_size_in_kb", p("gds_size_in_kb")},
          {"num_gws", p("num_gws")},
          {"wave_front_size", p("wave_front_size")},
          {"num_xcc", num_xcc},
          {"cu_count", cu_count},
          {"array_count", p("array_count")},
          {"num_shader_banks", banks},
          {"simd_arrays_per_engine", p("simd_arrays_per_engine")},
          {"cu_per_simd_array", p("cu_per_simd_array")},
          {"simd_per_cu", simd_per_cu},
          {"max_slots_scratch_cu", p("max_slots_scratch_cu")},
          {"gfx_target_version", p("gfx_target_version")},
          {"vendor_id", p("vendor_id")},
          {"device_id", p("device_id")},
          {"location_id", p("location_id")},
          {"domain", p("domain")},
          {"drm_render_minor", p("drm_render_minor")},
          {"num_sdma_engines", p("num_sdma_engines")},
          {"num_sdma_xgmi_engines", p("num_sdma_xgmi_engines")},
          {"num_sdma_queues_per_engine", p("num_sdma_queues_per_engine")},
          {"num_cp_queues", p("num_cp_queues")},
          {"max_engine_clk_ccompute", p("max_engine_clk_ccompute")},
          {"max_engine_clk_fcompute", a.gpu ? p("max_engine_clk_fcompute") : 0},
          {"sdma_fw_version", a.gpu ? (p("sdma_fw_version") & 0x3ff) : 0},
          {"fw_version", a.gpu ? (p("fw_version") & 0x3ff) : 0},
          {"capability", a.gpu ? p("capability") : 0},
          {"cu_per_engine", cu_per_engine},
          {"max_waves_per_cu", simd_per_cu * p("max_waves_per_simd")},
          {"family_id", p("family_id")},
          {"workgroup_max_size", workgroup_max},
          {"grid_max_size", grid_max},
          {"local_mem_size", a.gpu ? p("local_mem_size") : 0},
          {"hive_id", p("hive_id")},
          {"gpu_id", a.gpu_id},
          {"workgroup_max_dim_x", workgroup_max},
          {"workgroup_max_dim_y", workgroup_max},
          {"workgroup_max_dim_z", workgroup_max},
          {"grid_max_dim_x",
           a.gpu ? uint64_t{std::numeric_limits<int32_t>::max()} : 0},
          {"grid_max_dim_y",
           a.gpu ? uint64_t{std::numeric_limits<uint16_t>::max()} : 0},
          {"grid_max_dim_z",
           a.gpu ? uint64_t{std::numeric_limits<uint16_t>::max()} : 0}};
}

const char* AgentInfoCsvHeader() {
  return "\"Node_Id\",\"Logical_Node_Id\",\"Agent_Type\",\"Cpu_Cores_Count\","
         "\"Simd_Count\",\"Cpu_Core_Id_Base\",\"Simd_Id_Base\","
         "\"Max_Waves_Per_Simd\",\"Lds_Size_In_Kb\",\"Gds_Size_In_Kb\","
         "\"Num_Gws\",\"Wave_Front_Size\",\"Num_Xcc\",\"Cu_Count\","
         "\"Array_Count\",\"Num_Shader_Banks\",\"Simd_Arrays_Per_Engine\","
         "\"Cu_Per_Simd_Array\",\"Simd_Per_Cu\",\"Max_Slots_Scratch_Cu\","
         "\"Gfx_Target_Version\",\"Vendor_Id\",\"Device_Id\",\"Location_Id\","
         "\"Domain\",\"Drm_Render_Minor\",\"Num_Sdma_Engines\","
         "\"Num_Sdma_Xgmi_Engines\",\"Num_Sdma_Queues_Per_Engine\","
         "\"Num_Cp_Queues\",\"Max_Engine_Clk_Ccompute\","
         "\"Max_Engine_Clk_Fcompute\",\"Sdma_Fw_Version\",\"Fw_Version\","
         "\"Capability\",\"Cu_Per_Engine\",\"Max_Waves_Per_Cu\",\"Family_Id\","
         "\"Workgroup_Max_Size\",\"Grid_Max_Size\",\"Local_Mem_Size\","
         "\"Hive_Id\",\"Gpu_Id\",\"Workgroup_Max_Dim_X\","
         "\"Workgroup_Max_Dim_Y\",\"Workgroup_Max_Dim_Z\",\"Grid_Max_Dim_X\","
         "\"Grid_Max_Dim_Y\",\"Grid_Max_Dim_Z\",\"Name\",\"Vendor_Name\","
         "\"Product_Name\",\"Model_Name\"\n";
}

bool WriteAgentInfoCsv(const std::string& path,
                       const std::vector<AgentInfoRow>& rows) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::string out = AgentInfoCsvHeader();
  for (const AgentInfoRow& row : rows) {
    const AgentInfo& a = *row.info;
    const std::vector<AgentField> fields = AgentFields(a);
    std::vector<uint64_t> values = {a.node_id,
                                    static_cast<uint64_t>(row.logical_node_id),
                                    0};  // Agent_Type, below
    for (const AgentField& field : fields) {
      // The CSV has no columns for the counts of banks, caches and links.
      if (std::strcmp(field.name, "mem_banks_count") != 0 &&
          std::strcmp(field.name, "caches_count") != 0 &&
          std::strcmp(field.name, "io_links_count") != 0) {
        values.push_back(field.value);
      }
    }
    for (size_t i = 0; i < values.size(); ++i) {
      if (i != 0) out.push_back(',');
      if (i == 2) {
        out.append(a.gpu ? "\"GPU\"" : "\"CPU\"");
      } else {
        out.append(std::to_string(values[i]));
      }
    }
    for (const std::string* s :
         {&a.name, &a.vendor_name, &a.product_name, &a.model_name}) {
      out.append(",\"");
      for (char c : *s) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
      }
      out.push_back('"');
    }
    out.push_back('\n');
  }
  const bool written = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  const int err = errno;
  if (std::fclose(f) != 0 || !written) {
    if (!written) errno = err;
    return false;
  }
  return true;
}

}  // namespace roctrace
