// A tool's use of <rocprofiler-sdk/cxx/serialization.hpp>, built by the
// system g++ against the install tree: it writes the agents, code objects and
// kernel symbols it saw to a JSON file (and to cereal's binary and portable
// binary archives), reads them back with load.hpp, and checks that every
// field came back. Every field written starts with a distinct non-zero byte
// pattern, so a field that is written but not read back stays 0 and differs.
// Prints "serialization client: N checks passed" or the first failures.
//
//   serialization_client DIR
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <rocprofiler-sdk/cxx/serialization.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

int failures = 0;
int checks = 0;

void Check(bool ok, const std::string& what) {
  ++checks;
  if (!ok) {
    ++failures;
    std::cerr << "FAIL: " << what << "\n";
  }
}

// Fills `value`'s bytes with a pattern that differs from byte to byte and
// from seed to seed: every integer field becomes non-zero and distinct.
template <typename Tp>
void Pattern(Tp& value, unsigned seed) {
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  for (size_t i = 0; i < sizeof(Tp); ++i) {
    bytes[i] = static_cast<unsigned char>(1 + (seed * 31 + i * 7) % 250);
  }
}

// The text of `value` in a JSON archive: equal texts mean equal fields, for
// every field save.hpp writes.
template <typename Tp>
std::string Json(const Tp& value) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive ar{out};
    ar(cereal::make_nvp("value", value));
  }
  return out.str();
}

struct Records {
  std::vector<rocprofiler_agent_v0_t> agents;
  std::vector<rocprofiler_callback_tracing_code_object_load_data_t> objects;
  std::vector<
      rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t>
      kernels;
};

// What a tool keeps of a run: two agents with their arrays, a code object
// read from a file and one from memory, two kernels.
Records Original(std::vector<rocprofiler_agent_cache_t>& caches,
                 std::vector<rocprofiler_agent_io_link_t>& links,
                 std::vector<rocprofiler_agent_mem_bank_t>& banks) {
  Records r;
  for (unsigned i = 0; i < 3; ++i) {
    caches.emplace_back();
    Pattern(caches.back(), 10 + i);
    links.emplace_back();
    Pattern(links.back(), 20 + i);
    banks.emplace_back();
    Pattern(banks.back(), 30 + i);
    // The fields 1.0.0 types as KFD bit-field unions are written as their
    // bit-fields, the reserved bits not (as 1.0.0 writes them).
    caches.back().type.Value &= 0xfu;
    links.back().flags.LinkProperty &= 0x1fu;
    banks.back().flags.MemoryProperty &= 0x3u;
  }
  for (unsigned i = 0; i < 2; ++i) {
    rocprofiler_agent_v0_t a;
    Pattern(a, 40 + i);
    a.type = i == 0 ? ROCPROFILER_AGENT_TYPE_CPU : ROCPROFILER_AGENT_TYPE_GPU;
    a.name = i == 0 ? "AMD EPYC 7763" : "gfx90a";
    a.vendor_name = i == 0 ? "CPU" : "AMD";
    a.product_name = i == 0 ? "" : "AMD Instinct MI210";
    a.model_name = nullptr;  // written as "", read back as ""
    // The first agent has every array, the second none.
    a.caches = i == 0 ? caches.data() : nullptr;
    a.caches_count = i == 0 ? caches.size() : 0;
    a.io_links = i == 0 ? links.data() : nullptr;
    a.io_links_count = i == 0 ? links.size() : 0;
    a.mem_banks = i == 0 ? banks.data() : nullptr;
    a.mem_banks_count = i == 0 ? banks.size() : 0;
    r.agents.push_back(a);
  }
  for (unsigned i = 0; i < 2; ++i) {
    rocprofiler_callback_tracing_code_object_load_data_t co;
    Pattern(co, 50 + i);
    co.storage_type = i == 0 ? ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE
                             : ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
    co.uri = i == 0 ? "file:///opt/app/bin/app#offset=8192&size=40960"
                    : "memory://1234#offset=0x7f00&size=4096";
    r.objects.push_back(co);
    rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t k;
    Pattern(k, 60 + i);
    k.kernel_name = i == 0 ? "_Z6vecAddPfS_S_i.kd" : "transpose \"tiled\"";
    r.kernels.push_back(k);
  }
  return r;
}

void Compare(const Records& want, const Records& got, const std::string& how) {
  Check(got.agents.size() == want.agents.size(), how + ": agent count");
  Check(got.objects.size() == want.objects.size(), how + ": object count");
  Check(got.kernels.size() == want.kernels.size(), how + ": kernel count");
  for (size_t i = 0; i < want.agents.size() && i < got.agents.size(); ++i) {
    const auto& w = want.agents[i];
    const auto& g = got.agents[i];
    const std::string at = how + ": agent " + std::to_string(i) + " ";
    Check(Json(g) == Json(w), at + "fields");
    Check(g.id.handle == w.id.handle && g.type == w.type &&
              g.gfx_target_version == w.gfx_target_version &&
              g.logical_node_id == w.logical_node_id,
          at + "id, type, gfx_target_version, logical_node_id");
    Check(std::string{g.name} == w.name, at + "name");
    Check(std::string{g.product_name} == w.product_name, at + "product_name");
    Check(g.model_name && std::string{g.model_name}.empty(),
          at + "NULL model_name read back as \"\"");
    Check(g.caches_count == w.caches_count &&
              (w.caches_count == 0
                   ? g.caches == nullptr
                   : std::memcmp(g.caches, w.caches,
                                 sizeof(*w.caches) * w.caches_count) == 0),
          at + "caches");
    Check(g.io_links_count == w.io_links_count &&
              (w.io_links_count == 0
                   ? g.io_links == nullptr
                   : std::memcmp(g.io_links, w.io_links,
                                 sizeof(*w.io_links) * w.io_links_count) == 0),
          at + "io_links");
    Check(
        g.mem_banks_count == w.mem_banks_count &&
            (w.mem_banks_count == 0
                 ? g.mem_banks == nullptr
                 : std::memcmp(g.mem_banks, w.mem_banks,
                               sizeof(*w.mem_banks) * w.mem_banks_count) == 0),
        at + "mem_banks");
    Check(g.runtime_visibility.hsa == w.runtime_visibility.hsa &&
              g.runtime_visibility.hip == w.runtime_visibility.hip &&
              g.runtime_visibility.rccl == w.runtime_visibility.rccl &&
              g.runtime_visibility.rocdecode == w.runtime_visibility.rocdecode,
          at + "runtime_visibility");
    Check(g.uuid.value == w.uuid.value, at + "uuid");
  }
  for (size_t i = 0; i < want.objects.size() && i < got.objects.size(); ++i) {
    const auto& w = want.objects[i];
    const auto& g = got.objects[i];
    const std::string at = how + ": code object " + std::to_string(i) + " ";
    Check(Json(g) == Json(w), at + "fields");
    Check(g.code_object_id == w.code_object_id &&
              g.agent_id.handle == w.agent_id.handle &&
              g.load_base == w.load_base && g.load_delta == w.load_delta,
          at + "id, agent, load base and delta");
    Check(std::string{g.uri} == w.uri, at + "uri");
    if (w.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE) {
      Check(g.storage_file == w.storage_file, at + "storage_file");
    } else {
      Check(g.memory_base == w.memory_base && g.memory_size == w.memory_size,
            at + "memory_base, memory_size");
    }
  }
  for (size_t i = 0; i < want.kernels.size() && i < got.kernels.size(); ++i) {
    const auto& w = want.kernels[i];
    const auto& g = got.kernels[i];
    const std::string at = how + ": kernel " + std::to_string(i) + " ";
    Check(Json(g) == Json(w), at + "fields");
    Check(std::string{g.kernel_name} == w.kernel_name, at + "kernel_name");
    Check(g.kernel_id == w.kernel_id && g.kernel_object == w.kernel_object &&
              g.sgpr_count == w.sgpr_count &&
              g.kernel_address.handle == w.kernel_address.handle,
          at + "id, object, sgpr count, address");
  }
}

template <typename OutputT, typename InputT>
void RoundTrip(const Records& want, const std::string& path,
               const std::string& how) {
  {
    std::ofstream out{path, std::ios::binary};
    OutputT ar{out};
    ar(cereal::make_nvp("agents", want.agents),
       cereal::make_nvp("code_objects", want.objects),
       cereal::make_nvp("kernel_symbols", want.kernels));
  }
  Records got;
  std::ifstream in{path, std::ios::binary};
  InputT ar{in};
  ar(cereal::make_nvp("agents", got.agents),
     cereal::make_nvp("code_objects", got.objects),
     cereal::make_nvp("kernel_symbols", got.kernels));
  Compare(want, got, how);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: serialization_client DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<rocprofiler_agent_cache_t> caches;
  std::vector<rocprofiler_agent_io_link_t> links;
  std::vector<rocprofiler_agent_mem_bank_t> banks;
  const Records want = Original(caches, links, banks);

  RoundTrip<cereal::JSONOutputArchive, cereal::JSONInputArchive>(
      want, dir + "/records.json", "JSON");
  RoundTrip<cereal::BinaryOutputArchive, cereal::BinaryInputArchive>(
      want, dir + "/records.bin", "binary");
  RoundTrip<cereal::PortableBinaryOutputArchive,
            cereal::PortableBinaryInputArchive>(want, dir + "/records.pbin",
                                                "portable binary");

  // JSON is read by name: a file whose fields come in another order (here a
  // kernel written by hand, its fields reversed) reads the same.
  {
    std::istringstream in{
        R"({"kernel": {"kernel_address": {"handle": 4096},
            "kernel_code_entry_byte_offset": 256, "accum_vgpr_count": 4,
            "arch_vgpr_count": 32, "sgpr_count": 16,
            "private_segment_size": 0, "group_segment_size": 1024,
            "kernarg_segment_alignment": 8, "kernarg_segment_size": 24,
            "kernel_object": 123456, "kernel_name": "k", "code_object_id": 3,
            "kernel_id": 7, "size": 96}})"};
    cereal::JSONInputArchive ar{in};
    rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t k{};
    ar(cereal::make_nvp("kernel", k));
    Check(k.kernel_id == 7 && k.code_object_id == 3 &&
              std::string{k.kernel_name} == "k" && k.kernel_object == 123456 &&
              k.group_segment_size == 1024 && k.arch_vgpr_count == 32 &&
              k.kernel_address.handle == 4096 && k.size == 96,
          "JSON fields in another order");
  }

  // A file without a field the struct needs is an error, not a silent 0.
  {
    std::istringstream in{R"({"agent_id": {"x": 1}})"};
    cereal::JSONInputArchive ar{in};
    rocprofiler_agent_id_t id{};
    bool threw = false;
    try {
      ar(cereal::make_nvp("agent_id", id));
    } catch (const cereal::Exception&) {
      threw = true;
    }
    Check(threw, "a missing field throws cereal::Exception");
  }

  // The same text read twice points at one kept copy.
  {
    std::istringstream in1{Json(want.objects[1])}, in2{Json(want.objects[1])};
    rocprofiler_callback_tracing_code_object_load_data_t a{}, b{};
    {
      cereal::JSONInputArchive ar{in1};
      ar(cereal::make_nvp("value", a));
    }
    {
      cereal::JSONInputArchive ar{in2};
      ar(cereal::make_nvp("value", b));
    }
    Check(a.uri == b.uri, "one copy of a string read twice");
  }

  // The name tables of cxx/name_info.hpp, written as a list of kinds.
  {
    const auto names = rocprofiler::sdk::get_callback_tracing_names();
    const std::string json = Json(names);
    Check(json.find("\"kind\": \"HSA_CORE_API\"") != std::string::npos,
          "name table: HSA_CORE_API");
    Check(json.find("\"hsa_init\"") != std::string::npos,
          "name table: hsa_init among HSA_CORE_API's operations");
  }

  if (failures != 0) {
    std::cerr << failures << " of " << checks << " checks failed\n";
    return 1;
  }
  std::cout << "serialization client: " << checks << " checks passed\n";
  return 0;
}
