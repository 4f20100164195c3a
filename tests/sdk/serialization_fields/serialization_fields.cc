// A tool's records written with <rocprofiler-sdk/cxx/serialization/save.hpp>
// carry what rocprofiler-sdk 1.0.0's save.hpp writes: built by the system g++
// against the install tree, this client serializes one value of every type
// the table (rocprofiler-sdk-1.0.0-serialization.txt, facts of 1.0.0) lists,
// each field a distinct non-zero byte pattern, to a JSON archive and to a
// binary archive, and checks
//   - the JSON: every object's keys, in order, and each value's kind (number,
//     string, object, list), against the table's shape for the type;
//   - the binary archive: byte for byte the values of the JSON, in the
//     table's order, each at the table's width (so a binary archive written
//     here reads back in 1.0.0's order and types, and the other way round);
//   - that the table and the values tested cover each other;
//   - for the types load.hpp reads back (agents with their KFD bit-fields,
//     code objects, kernel symbols, IDs), that what is loaded from each
//     archive saves again to the same JSON, and the fields loaded equal the
//     fields saved.
// Prints "serialization fields: N checks passed" or the failures.
//
//   serialization_fields TABLE
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <rocprofiler-sdk/cxx/serialization.hpp>
#include <set>
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

// ---- The table: TYPE[/VARIANT] = SHAPE ----

struct Shape {
  enum Kind { kObject, kList, kInt, kDouble, kString, kRef } kind = kInt;
  int width = 0;    // kInt
  std::string ref;  // kRef
  std::vector<std::pair<std::string, std::shared_ptr<Shape>>> members;
  std::shared_ptr<Shape> element;  // kList
};

class ShapeParser {
 public:
  explicit ShapeParser(const std::string& text) : text_(text) {}

  std::shared_ptr<Shape> Parse() {
    auto shape = ParseShape();
    SkipSpace();
    if (pos_ != text_.size()) throw std::runtime_error("trailing text");
    return shape;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() &&
           isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool Take(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::string Word() {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      const size_t end = text_.find('"', pos_ + 1);
      if (end == std::string::npos) throw std::runtime_error("open quote");
      std::string word = text_.substr(pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      return word;
    }
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (isalnum(static_cast<unsigned char>(text_[pos_])) ||
            text_[pos_] == '_'))
      ++pos_;
    if (start == pos_)
      throw std::runtime_error("expected a word at " + std::to_string(pos_));
    return text_.substr(start, pos_ - start);
  }
  std::shared_ptr<Shape> ParseShape() {
    auto shape = std::make_shared<Shape>();
    if (Take('{')) {
      shape->kind = Shape::kObject;
      while (!Take('}')) {
        std::string name = Word();
        if (!Take(':')) throw std::runtime_error("expected ':' after " + name);
        shape->members.emplace_back(name, ParseShape());
      }
    } else if (Take('[')) {
      shape->kind = Shape::kList;
      shape->element = ParseShape();
      if (!Take(']')) throw std::runtime_error("expected ']'");
    } else {
      const std::string word = Word();
      if (word == "1" || word == "2" || word == "4" || word == "8") {
        shape->kind = Shape::kInt;
        shape->width = std::stoi(word);
      } else if (word == "d") {
        shape->kind = Shape::kDouble;
      } else if (word == "s") {
        shape->kind = Shape::kString;
      } else {
        shape->kind = Shape::kRef;
        shape->ref = word;
      }
    }
    return shape;
  }

  const std::string& text_;
  size_t pos_ = 0;
};

std::map<std::string, std::shared_ptr<Shape>> ReadTable(const char* path) {
  std::ifstream in{path};
  if (!in) throw std::runtime_error(std::string{"cannot read "} + path);
  std::map<std::string, std::shared_ptr<Shape>> table;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos) throw std::runtime_error("bad line: " + line);
    const std::string label = line.substr(0, eq);
    const std::string text = line.substr(eq + 3);
    table[label] = ShapeParser{text}.Parse();
  }
  return table;
}

// ---- Checking one value's JSON and binary archives against a shape ----

using JsonValue = RAPIDJSON_NAMESPACE::Value;

const char* KindOf(const JsonValue& v) {
  if (v.IsObject()) return "an object";
  if (v.IsArray()) return "a list";
  if (v.IsString()) return "a string";
  if (v.IsNumber()) return "a number";
  return "something else";
}

void AppendLittleEndian(std::string& bytes, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) {
    bytes.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

class ShapeChecker {
 public:
  explicit ShapeChecker(
      const std::map<std::string, std::shared_ptr<Shape>>& table)
      : table_(table) {}

  // Checks `json` against `shape`; appends to `bytes` what a binary archive
  // holds for it. False (with a failure reported) where they differ.
  bool Walk(const JsonValue& json, const Shape& shape, const std::string& at,
            std::string& bytes) {
    switch (shape.kind) {
      case Shape::kRef: {
        auto it = table_.find(shape.ref);
        if (it == table_.end()) {
          Check(false, at + ": the table has no " + shape.ref);
          return false;
        }
        return Walk(json, *it->second, at, bytes);
      }
      case Shape::kObject: {
        if (!json.IsObject()) {
          Check(false, at + ": " + KindOf(json) + ", want an object");
          return false;
        }
        std::string got, want;
        for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m)
          got += std::string{" "} + m->name.GetString();
        for (const auto& m : shape.members) want += " " + m.first;
        if (got != want) {
          Check(false, at + ": keys" + got + "; 1.0.0 writes" + want);
          return false;
        }
        size_t i = 0;
        bool ok = true;
        for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m, ++i) {
          ok = Walk(m->value, *shape.members[i].second,
                    at + "." + shape.members[i].first, bytes) &&
               ok;
        }
        return ok;
      }
      case Shape::kList: {
        if (!json.IsArray()) {
          Check(false, at + ": " + KindOf(json) + ", want a list");
          return false;
        }
        AppendLittleEndian(bytes, json.Size(), 8);
        bool ok = true;
        for (RAPIDJSON_NAMESPACE::SizeType i = 0; i < json.Size(); ++i) {
          ok = Walk(json[i], *shape.element, at + "[" + std::to_string(i) + "]",
                    bytes) &&
               ok;
        }
        return ok;
      }
      case Shape::kInt: {
        if (!json.IsNumber() || json.IsDouble()) {
          Check(false, at + ": " + KindOf(json) + ", want an integer");
          return false;
        }
        const uint64_t value = json.IsUint64()
                                   ? json.GetUint64()
                                   : static_cast<uint64_t>(json.GetInt64());
        AppendLittleEndian(bytes, value, shape.width);
        return true;
      }
      case Shape::kDouble: {
        if (!json.IsNumber()) {
          Check(false, at + ": " + KindOf(json) + ", want a number");
          return false;
        }
        const double value = json.GetDouble();
        uint64_t bits = 0;
        std::memcpy(&bits, &value, sizeof(bits));
        AppendLittleEndian(bytes, bits, 8);
        return true;
      }
      case Shape::kString: {
        if (!json.IsString()) {
          Check(false, at + ": " + KindOf(json) + ", want a string");
          return false;
        }
        AppendLittleEndian(bytes, json.GetStringLength(), 8);
        bytes.append(json.GetString(), json.GetStringLength());
        return true;
      }
    }
    return false;
  }

 private:
  const std::map<std::string, std::shared_ptr<Shape>>& table_;
};

// A JSON value's text without spaces, its keys in their order.
std::string Compact(const JsonValue& value) {
  RAPIDJSON_NAMESPACE::StringBuffer text;
  RAPIDJSON_NAMESPACE::Writer<RAPIDJSON_NAMESPACE::StringBuffer> writer{text};
  value.Accept(writer);
  return text.GetString();
}

template <typename Tp>
std::string Json(const Tp& value) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive ar{out};
    ar(cereal::make_nvp("value", value));
  }
  return out.str();
}

template <typename Tp>
std::string Binary(const Tp& value) {
  std::ostringstream out;
  {
    cereal::BinaryOutputArchive ar{out};
    ar(value);
  }
  return out.str();
}

struct Case {
  std::string label;
  std::string json;
  bool has_binary = false;
  std::string binary;
};

std::vector<Case> cases;

template <typename Tp>
void Add(const std::string& label, const Tp& value) {
  cases.push_back(Case{label, Json(value), true, Binary(value)});
}

// A JSON-only case (1.0.0 writes this type to JSON archives only).
template <typename Tp>
void AddJsonOnly(const std::string& label, const Tp& value) {
  cases.push_back(Case{label, Json(value), false, {}});
}

// A value whose bytes follow a pattern that differs from byte to byte and
// from seed to seed: every integer field becomes non-zero and distinct. (In
// storage of its own: the HIP argument unions, whose members have
// constructors in C++, cannot be default-constructed; they copy.)
template <typename Tp>
const Tp& Pattern(unsigned seed) {
  auto* bytes = static_cast<unsigned char*>(::operator new(sizeof(Tp)));
  for (size_t i = 0; i < sizeof(Tp); ++i) {
    bytes[i] = static_cast<unsigned char>(1 + (seed * 31 + i * 7) % 250);
  }
  return *reinterpret_cast<const Tp*>(bytes);
}

// ---- One value of every type the table lists ----

hsa_queue_t g_queue = Pattern<hsa_queue_t>(3);
rocprofiler_agent_mem_bank_t g_banks[1] = {
    Pattern<rocprofiler_agent_mem_bank_t>(4)};
rocprofiler_agent_cache_t g_caches[2] = {Pattern<rocprofiler_agent_cache_t>(5),
                                         Pattern<rocprofiler_agent_cache_t>(6)};
rocprofiler_agent_io_link_t g_links[1] = {
    Pattern<rocprofiler_agent_io_link_t>(7)};
rocprofiler_counter_record_dimension_info_t g_dims[2];
rocprofiler_counter_instance_id_t g_instances[3] = {11, 12, 13};

rocprofiler_callback_tracing_code_object_load_data_t CodeObject(
    rocprofiler_code_object_storage_type_t storage) {
  auto co = Pattern<rocprofiler_callback_tracing_code_object_load_data_t>(20);
  co.uri = "file:///opt/app/bin/app#offset=8192&size=40960";
  co.storage_type = storage;
  return co;
}

rocprofiler_agent_v0_t Agent() {
  auto a = Pattern<rocprofiler_agent_v0_t>(21);
  a.type = ROCPROFILER_AGENT_TYPE_GPU;
  a.name = "gfx90a";
  a.vendor_name = "AMD";
  a.product_name = "AMD Instinct MI210";
  a.model_name = nullptr;
  a.mem_banks = g_banks;
  a.mem_banks_count = 1;
  a.caches = g_caches;
  a.caches_count = 2;
  a.io_links = g_links;
  a.io_links_count = 1;
  return a;
}

template <typename RecordT>
RecordT OmptRecord(int32_t operation) {
  auto r = Pattern<RecordT>(22 + operation);
  r.kind = ROCPROFILER_BUFFER_TRACING_OMPT;
  r.operation = operation;
  return r;
}

void AddEveryType() {
  Add("rocprofiler_context_id_t", Pattern<rocprofiler_context_id_t>(30));
  Add("rocprofiler_agent_id_t", Pattern<rocprofiler_agent_id_t>(31));
  Add("hsa_agent_t", Pattern<hsa_agent_t>(32));
  Add("rocprofiler_queue_id_t", Pattern<rocprofiler_queue_id_t>(33));
  Add("rocprofiler_stream_id_t", Pattern<rocprofiler_stream_id_t>(34));
  Add("rocprofiler_counter_id_t", Pattern<rocprofiler_counter_id_t>(35));
  Add("rocprofiler_address_t", Pattern<rocprofiler_address_t>(36));
  Add("rocprofiler_correlation_id_t",
      Pattern<rocprofiler_correlation_id_t>(37));
  Add("rocprofiler_async_correlation_id_t",
      Pattern<rocprofiler_async_correlation_id_t>(38));
  Add("rocprofiler_dim3_t", Pattern<rocprofiler_dim3_t>(39));
  Add("rocprofiler_uuid_t", Pattern<rocprofiler_uuid_t>(40));
  Add("buffer_tracing_args",
      rocprofiler::sdk::serialization::buffer_tracing_args{"size_t", "size",
                                                           "4096"});

  Add("rocprofiler_callback_tracing_code_object_load_data_t/file",
      CodeObject(ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE));
  Add("rocprofiler_callback_tracing_code_object_load_data_t/memory",
      CodeObject(ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY));
  {
    auto k = Pattern<
        rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t>(
        41);
    k.kernel_name = "_Z6vecAddPfS_S_i.kd";
    Add("rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_"
        "t",
        k);
    auto h = Pattern<
        rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t>(
        42);
    h.device_function = "_Z6vecAddPfS_S_i";
    Add("rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_"
        "data_t",
        h);
  }

  Add("rocprofiler_hsa_api_retval_t",
      Pattern<rocprofiler_hsa_api_retval_t>(43));
  Add("rocprofiler_hip_api_retval_t",
      Pattern<rocprofiler_hip_api_retval_t>(44));
  Add("rocprofiler_marker_api_retval_t",
      Pattern<rocprofiler_marker_api_retval_t>(45));
  Add("rocprofiler_rccl_api_retval_t",
      Pattern<rocprofiler_rccl_api_retval_t>(46));
  Add("rocprofiler_rocdecode_api_retval_t",
      Pattern<rocprofiler_rocdecode_api_retval_t>(47));
  Add("rocprofiler_rocjpeg_api_retval_t",
      Pattern<rocprofiler_rocjpeg_api_retval_t>(48));
  Add("rocprofiler_callback_tracing_hsa_api_data_t",
      Pattern<rocprofiler_callback_tracing_hsa_api_data_t>(49));
  Add("rocprofiler_callback_tracing_hip_api_data_t",
      Pattern<rocprofiler_callback_tracing_hip_api_data_t>(50));
  Add("rocprofiler_callback_tracing_marker_api_data_t",
      Pattern<rocprofiler_callback_tracing_marker_api_data_t>(51));
  Add("rocprofiler_callback_tracing_rccl_api_data_t",
      Pattern<rocprofiler_callback_tracing_rccl_api_data_t>(52));
  Add("rocprofiler_callback_tracing_rocdecode_api_data_t",
      Pattern<rocprofiler_callback_tracing_rocdecode_api_data_t>(53));
  Add("rocprofiler_callback_tracing_rocjpeg_api_data_t",
      Pattern<rocprofiler_callback_tracing_rocjpeg_api_data_t>(54));
  Add("rocprofiler_callback_tracing_ompt_data_t",
      Pattern<rocprofiler_callback_tracing_ompt_data_t>(55));

  Add("hsa_queue_t", g_queue);
#ifdef ROCPROFILER_SDK_DETAIL_HSA_AMD_TOOL_EVENTS
  {
    auto e1 = Pattern<hsa_amd_event_scratch_alloc_start_t>(56);
    e1.queue = &g_queue;
    Add("hsa_amd_event_scratch_alloc_start_t", e1);
    auto e2 = Pattern<hsa_amd_event_scratch_alloc_end_t>(57);
    e2.queue = &g_queue;
    Add("hsa_amd_event_scratch_alloc_end_t", e2);
    auto e3 = Pattern<hsa_amd_event_scratch_free_start_t>(58);
    e3.queue = &g_queue;
    Add("hsa_amd_event_scratch_free_start_t", e3);
    auto e4 = Pattern<hsa_amd_event_scratch_free_end_t>(59);
    e4.queue = &g_queue;
    Add("hsa_amd_event_scratch_free_end_t", e4);
    auto e5 = Pattern<hsa_amd_event_scratch_async_reclaim_start_t>(60);
    e5.queue = &g_queue;
    Add("hsa_amd_event_scratch_async_reclaim_start_t", e5);
    auto e6 = Pattern<hsa_amd_event_scratch_async_reclaim_end_t>(61);
    e6.queue = &g_queue;
    Add("hsa_amd_event_scratch_async_reclaim_end_t", e6);
  }
#endif

  Add("rocprofiler_callback_tracing_scratch_memory_data_t",
      Pattern<rocprofiler_callback_tracing_scratch_memory_data_t>(62));
  Add("rocprofiler_kernel_dispatch_info_t",
      Pattern<rocprofiler_kernel_dispatch_info_t>(63));
  Add("rocprofiler_callback_tracing_kernel_dispatch_data_t",
      Pattern<rocprofiler_callback_tracing_kernel_dispatch_data_t>(64));
  Add("rocprofiler_callback_tracing_memory_copy_data_t",
      Pattern<rocprofiler_callback_tracing_memory_copy_data_t>(65));
  Add("rocprofiler_callback_tracing_memory_allocation_data_t",
      Pattern<rocprofiler_callback_tracing_memory_allocation_data_t>(66));
  Add("rocprofiler_callback_tracing_runtime_initialization_data_t",
      Pattern<rocprofiler_callback_tracing_runtime_initialization_data_t>(67));
  Add("rocprofiler_dispatch_counting_service_data_t",
      Pattern<rocprofiler_dispatch_counting_service_data_t>(68));
  Add("rocprofiler_dispatch_counting_service_record_t",
      Pattern<rocprofiler_dispatch_counting_service_record_t>(69));
  {
    auto r = Pattern<rocprofiler_callback_tracing_record_t>(70);
    r.payload = nullptr;
    Add("rocprofiler_callback_tracing_record_t", r);
  }

  Add("rocprofiler_buffer_tracing_hsa_api_record_t",
      Pattern<rocprofiler_buffer_tracing_hsa_api_record_t>(71));
  Add("rocprofiler_buffer_tracing_hip_api_record_t",
      Pattern<rocprofiler_buffer_tracing_hip_api_record_t>(72));
  {
    // Arguments as the library formats them: a call it knows, its
    // pointers NULL.
    auto r = Pattern<rocprofiler_buffer_tracing_hip_api_ext_record_t>(73);
    r.kind = ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT;
    r.operation = ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc;
    std::memset(static_cast<void*>(&r.args), 0, sizeof(r.args));
    r.args.hipMalloc.size = 4096;
    Add("rocprofiler_buffer_tracing_hip_api_ext_record_t", r);
  }
  Add("rocprofiler_buffer_tracing_marker_api_record_t",
      Pattern<rocprofiler_buffer_tracing_marker_api_record_t>(74));
  Add("rocprofiler_buffer_tracing_rccl_api_record_t",
      Pattern<rocprofiler_buffer_tracing_rccl_api_record_t>(75));
  Add("rocprofiler_buffer_tracing_rocdecode_api_record_t",
      Pattern<rocprofiler_buffer_tracing_rocdecode_api_record_t>(76));
  {
    auto r = Pattern<rocprofiler_buffer_tracing_rocdecode_api_ext_record_t>(77);
    r.kind = ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT;
    std::memset(static_cast<void*>(&r.args), 0, sizeof(r.args));
    Add("rocprofiler_buffer_tracing_rocdecode_api_ext_record_t", r);
  }
  Add("rocprofiler_buffer_tracing_rocjpeg_api_record_t",
      Pattern<rocprofiler_buffer_tracing_rocjpeg_api_record_t>(78));

  Add("rocprofiler_buffer_tracing_ompt_target_t",
      Pattern<rocprofiler_buffer_tracing_ompt_target_t>(79));
  Add("rocprofiler_buffer_tracing_ompt_target_data_op_t",
      Pattern<rocprofiler_buffer_tracing_ompt_target_data_op_t>(80));
  Add("rocprofiler_buffer_tracing_ompt_target_kernel_t",
      Pattern<rocprofiler_buffer_tracing_ompt_target_kernel_t>(81));
  Add("rocprofiler_buffer_tracing_ompt_record_t/target_emi",
      OmptRecord<rocprofiler_buffer_tracing_ompt_record_t>(
          ROCPROFILER_OMPT_ID_target_emi));
  Add("rocprofiler_buffer_tracing_ompt_record_t/target_data_op_emi",
      OmptRecord<rocprofiler_buffer_tracing_ompt_record_t>(
          ROCPROFILER_OMPT_ID_target_data_op_emi));
  Add("rocprofiler_buffer_tracing_ompt_record_t/target_submit_emi",
      OmptRecord<rocprofiler_buffer_tracing_ompt_record_t>(
          ROCPROFILER_OMPT_ID_target_submit_emi));
  Add("rocprofiler_buffer_tracing_ompt_record_t/other",
      OmptRecord<rocprofiler_buffer_tracing_ompt_record_t>(
          ROCPROFILER_OMPT_ID_parallel_begin));

  Add("rocprofiler_buffer_tracing_kernel_dispatch_record_t",
      Pattern<rocprofiler_buffer_tracing_kernel_dispatch_record_t>(82));
  Add("rocprofiler_buffer_tracing_memory_copy_record_t",
      Pattern<rocprofiler_buffer_tracing_memory_copy_record_t>(83));
  Add("rocprofiler_buffer_tracing_memory_allocation_record_t",
      Pattern<rocprofiler_buffer_tracing_memory_allocation_record_t>(84));
  Add("rocprofiler_buffer_tracing_scratch_memory_record_t",
      Pattern<rocprofiler_buffer_tracing_scratch_memory_record_t>(85));
  Add("rocprofiler_buffer_tracing_correlation_id_retirement_record_t",
      Pattern<rocprofiler_buffer_tracing_correlation_id_retirement_record_t>(
          86));
  Add("rocprofiler_buffer_tracing_runtime_initialization_record_t",
      Pattern<rocprofiler_buffer_tracing_runtime_initialization_record_t>(87));

  Add("rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t>(88));
  Add("rocprofiler_buffer_tracing_kfd_event_page_fault_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_event_page_fault_record_t>(89));
  Add("rocprofiler_buffer_tracing_kfd_event_queue_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_event_queue_record_t>(90));
  Add("rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t>(
          91));
  Add("rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t>(
          92));
  Add("rocprofiler_buffer_tracing_kfd_page_migrate_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_page_migrate_record_t>(93));
  Add("rocprofiler_buffer_tracing_kfd_page_fault_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_page_fault_record_t>(94));
  Add("rocprofiler_buffer_tracing_kfd_queue_record_t",
      Pattern<rocprofiler_buffer_tracing_kfd_queue_record_t>(95));

  Add("rocprofiler_counter_record_t",
      Pattern<rocprofiler_counter_record_t>(96));
  for (unsigned i = 0; i < 2; ++i) {
    g_dims[i] = Pattern<rocprofiler_counter_record_dimension_info_t>(97 + i);
    g_dims[i].name = i == 0 ? "XCC" : "SE";
  }
  Add("rocprofiler_counter_record_dimension_info_t", g_dims[0]);
  {
    auto v0 = Pattern<rocprofiler_counter_info_v0_t>(99);
    v0.name = "SQ_WAVES";
    v0.description = "Count number of waves sent to SQs.";
    v0.block = "SQ";
    v0.expression = "";
    Add("rocprofiler_counter_info_v0_t", v0);
    auto v1 = Pattern<rocprofiler_counter_info_v1_t>(100);
    v1.name = "GRBM_COUNT";
    v1.description = nullptr;  // written as ""
    v1.block = "GRBM";
    v1.expression = "";
    v1.dimensions = g_dims;
    v1.dimensions_count = 2;
    v1.instance_ids = g_instances;
    v1.instance_ids_count = 3;
    Add("rocprofiler_counter_info_v1_t", v1);
  }

  Add("rocprofiler_pc_t", Pattern<rocprofiler_pc_t>(101));
  Add("rocprofiler_pc_sampling_hw_id_v0_t",
      Pattern<rocprofiler_pc_sampling_hw_id_v0_t>(102));
  Add("rocprofiler_pc_sampling_record_host_trap_v0_t",
      Pattern<rocprofiler_pc_sampling_record_host_trap_v0_t>(103));
  Add("rocprofiler_pc_sampling_record_stochastic_header_t",
      Pattern<rocprofiler_pc_sampling_record_stochastic_header_t>(104));
  {
    auto snapshot = Pattern<rocprofiler_pc_sampling_snapshot_v0_t>(105);
    snapshot.reason_not_issued =
        ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT;
    Add("rocprofiler_pc_sampling_snapshot_v0_t", snapshot);
    auto s = Pattern<rocprofiler_pc_sampling_record_stochastic_v0_t>(106);
    s.inst_type = ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU;
    s.snapshot = snapshot;
    Add("rocprofiler_pc_sampling_record_stochastic_v0_t", s);
  }
  Add("rocprofiler_pc_sampling_configuration_t",
      Pattern<rocprofiler_pc_sampling_configuration_t>(107));

  // The KFD's unions (agent.h includes hsakmttypes.h), which save.hpp
  // also serializes by themselves.
  Add("HsaCacheType", Pattern<HsaCacheType>(108));
  Add("HSA_LINKPROPERTY", Pattern<HSA_LINKPROPERTY>(109));
  Add("HSA_CAPABILITY", Pattern<HSA_CAPABILITY>(110));
  Add("HSA_MEMORYPROPERTY", Pattern<HSA_MEMORYPROPERTY>(111));
  Add("HSA_ENGINE_VERSION", Pattern<HSA_ENGINE_VERSION>(112));
  Add("HSA_ENGINE_ID", Pattern<HSA_ENGINE_ID>(113));
  Add("rocprofiler_agent_cache_t", g_caches[0]);
  Add("rocprofiler_agent_io_link_t", g_links[0]);
  Add("rocprofiler_agent_mem_bank_t", g_banks[0]);
  Add("rocprofiler_agent_runtime_visiblity_t",
      Pattern<rocprofiler_agent_runtime_visiblity_t>(114));
  Add("rocprofiler_agent_v0_t", Agent());

  const auto names = rocprofiler::sdk::get_buffer_tracing_names();
  AddJsonOnly("name_info", names);
  AddJsonOnly("name_info_impl",
              names[ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API]);
}

// Types whose values the table lists but this build cannot make: the scratch
// events where the HSA headers lack them.
bool MayBeAbsent(const std::string& label) {
  return label.rfind("hsa_amd_event_scratch_", 0) == 0;
}

void CheckEveryType(
    const std::map<std::string, std::shared_ptr<Shape>>& table) {
  ShapeChecker checker{table};
  std::set<std::string> tested;
  for (const auto& c : cases) {
    tested.insert(c.label);
    auto it = table.find(c.label);
    if (it == table.end()) {
      Check(false, c.label + ": saved here, not in 1.0.0's table");
      continue;
    }
    RAPIDJSON_NAMESPACE::Document doc;
    doc.Parse(c.json.c_str());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("value")) {
      Check(false, c.label + ": not a JSON object with \"value\": " + c.json);
      continue;
    }
    std::string want_bytes;
    const bool shape_ok =
        checker.Walk(doc["value"], *it->second, c.label, want_bytes);
    Check(shape_ok, c.label + ": JSON as 1.0.0 writes it");
    if (shape_ok && c.has_binary) {
      Check(c.binary == want_bytes,
            c.label + ": binary archive of " + std::to_string(c.binary.size()) +
                " bytes; 1.0.0's order and widths give " +
                std::to_string(want_bytes.size()) +
                (c.binary.size() == want_bytes.size() ? " (other bytes)" : ""));
    }
  }
  for (const auto& entry : table) {
    const std::string label = entry.first;
    if (tested.count(label) != 0) continue;
    // A type the other entries name but that has no save of its own here
    // (the scratch events' queue is saved through its pointer).
    if (MayBeAbsent(label)) continue;
    Check(false, label + ": in 1.0.0's table, no value of it tested");
  }
}

// ---- Round trips through load.hpp ----

template <typename Tp>
Tp FromJson(const std::string& json) {
  std::istringstream in{json};
  cereal::JSONInputArchive ar{in};
  Tp value{};
  ar(cereal::make_nvp("value", value));
  return value;
}

template <typename Tp>
Tp FromBinary(const std::string& bytes) {
  std::istringstream in{bytes};
  cereal::BinaryInputArchive ar{in};
  Tp value{};
  ar(value);
  return value;
}

template <typename Tp>
void RoundTrip(
    const std::string& label, const Tp& value,
    const std::function<bool(const Tp&, const Tp&)>& same = nullptr) {
  const std::string json = Json(value);
  const Tp from_json = FromJson<Tp>(json);
  const Tp from_binary = FromBinary<Tp>(Binary(value));
  Check(Json(from_json) == json,
        label + ": loaded from JSON, saves the same JSON");
  Check(Json(from_binary) == json,
        label + ": loaded from binary, saves the same JSON");
  if (same) {
    Check(same(value, from_json), label + ": fields loaded from JSON");
    Check(same(value, from_binary), label + ": fields loaded from binary");
  }
}

// The KFD-typed agent fields, with their reserved bits clear (those bits
// are not written, as in 1.0.0).
rocprofiler_agent_v0_t AgentWithoutReservedBits() {
  auto a = Agent();
  a.capability.Value &= 0x3fffffffu;       // bits 30-31 not written
  a.sdma_fw_version.Value &= 0x000fffffu;  // bits 20-31 reserved
  return a;
}

void CheckRoundTrips() {
  RoundTrip<rocprofiler_agent_id_t>(
      "agent id", Pattern<rocprofiler_agent_id_t>(120),
      [](const auto& a, const auto& b) { return a.handle == b.handle; });
  RoundTrip<rocprofiler_address_t>(
      "address", Pattern<rocprofiler_address_t>(121),
      [](const auto& a, const auto& b) { return a.handle == b.handle; });
  RoundTrip<rocprofiler_dim3_t>("dim3", Pattern<rocprofiler_dim3_t>(122),
                                [](const auto& a, const auto& b) {
                                  return a.x == b.x && a.y == b.y && a.z == b.z;
                                });
  RoundTrip<rocprofiler_callback_tracing_code_object_load_data_t>(
      "code object (file)",
      CodeObject(ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE));
  RoundTrip<rocprofiler_callback_tracing_code_object_load_data_t>(
      "code object (memory)",
      CodeObject(ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY));
  {
    auto k = Pattern<
        rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t>(
        123);
    k.kernel_name = "transpose";
    RoundTrip<decltype(k)>(
        "kernel symbol", k, [](const auto& a, const auto& b) {
          return a.kernel_id == b.kernel_id &&
                 a.kernel_address.handle == b.kernel_address.handle &&
                 std::string{b.kernel_name} == a.kernel_name;
        });
  }
  // The KFD bit-fields of an agent and its arrays come back as the integers
  // they were.
  const auto agent = AgentWithoutReservedBits();
  RoundTrip<rocprofiler_agent_v0_t>(
      "agent", agent, [](const auto& a, const auto& b) {
        bool same = a.capability.Value == b.capability.Value &&
                    a.fw_version.Value == b.fw_version.Value &&
                    a.sdma_fw_version.Value == b.sdma_fw_version.Value &&
                    a.caches_count == b.caches_count &&
                    a.mem_banks_count == b.mem_banks_count &&
                    a.io_links_count == b.io_links_count;
        for (uint32_t i = 0; same && i < a.caches_count; ++i)
          same = (a.caches[i].type.Value & 0xfu) == b.caches[i].type.Value;
        for (uint32_t i = 0; same && i < a.io_links_count; ++i)
          same = (a.io_links[i].flags.LinkProperty & 0x1fu) ==
                 b.io_links[i].flags.LinkProperty;
        for (uint32_t i = 0; same && i < a.mem_banks_count; ++i)
          same = (a.mem_banks[i].flags.MemoryProperty & 0x3u) ==
                 b.mem_banks[i].flags.MemoryProperty;
        return same;
      });
  // A value read over one already there changes only the bits of its fields.
  {
    rocprofiler_agent_cache_t cache = g_caches[1];
    cache.type.Value = 0x5u;  // Data and CPU
    const std::string json = Json(cache);
    std::istringstream in{json};
    cereal::JSONInputArchive ar{in};
    rocprofiler_agent_cache_t into{};
    into.type.Value = 0xf0u;  // reserved bits set before the read
    ar(cereal::make_nvp("value", into));
    Check(into.type.Value == 0xf5u, "cache type read over reserved bits: " +
                                        std::to_string(into.type.Value));
  }
  {
    HSA_CAPABILITY capability{};
    capability.Value = 0x2a5a5a5au;
    RoundTrip<HSA_CAPABILITY>(
        "HSA_CAPABILITY", capability,
        [](const auto& a, const auto& b) { return a.Value == b.Value; });
    HSA_ENGINE_ID engine{};
    engine.Value = 0x12345678u;
    RoundTrip<HSA_ENGINE_ID>(
        "HSA_ENGINE_ID", engine,
        [](const auto& a, const auto& b) { return a.Value == b.Value; });
    // The union and the agent's integer field write the same thing.
    auto a = Agent();
    a.capability = capability;
    RAPIDJSON_NAMESPACE::Document agent_doc, union_doc;
    agent_doc.Parse(Json(a).c_str());
    union_doc.Parse(Json(capability).c_str());
    Check(Compact(agent_doc["value"]["capability"]) ==
              Compact(union_doc["value"]),
          "HSA_CAPABILITY written alone as in an agent: " +
              Compact(union_doc["value"]));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: serialization_fields TABLE\n";
    return 2;
  }
  try {
    const auto table = ReadTable(argv[1]);
    AddEveryType();
    CheckEveryType(table);
    CheckRoundTrips();
  } catch (const std::exception& e) {
    std::cerr << "FAIL: " << e.what() << "\n";
    return 1;
  }
  if (failures != 0) {
    std::cerr << failures << " of " << checks << " checks failed\n";
    return 1;
  }
  std::cout << "serialization fields: " << checks << " checks passed\n";
  return 0;
}
