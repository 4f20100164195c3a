// rocprofv3's JSON as a JSON parser reads it: each record's kind is
// rocprofiler-sdk's buffer tracing kind of the call (HSA core and AMD
// extension apart, HIP runtime and compiler apart, rocTX marks and ranges
// as MARKER_CORE_RANGE_API operations), strings.buffer_records names kinds
// and operations by those indices, strings.marker_api gives each rocTX
// event's message by correlation ID, and metadata and agents carry
// rocprofv3's fields.
#include "roctrace/writers/json_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tool/sdk_operation_names.h"
#include "roctrace/writers/utf8.h"

namespace roctrace {
namespace {

using nlohmann::json;

json Read(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

struct Written {
  json tool;
  // (kind name, operation name) of each record of a section, in order.
  std::vector<std::pair<std::string, std::string>> Names(
      const char* section) const {
    std::vector<std::pair<std::string, std::string>> names;
    const json& strings = tool["strings"]["buffer_records"];
    for (const json& r : tool["buffer_records"][section]) {
      const json& kind = strings.at(r["kind"].get<size_t>());
      names.emplace_back(kind["kind"].get<std::string>(),
                         kind["operations"]
                             .at(r["operation"].get<size_t>())
                             .get<std::string>());
    }
    return names;
  }
};

// The kind names as the tool gives them: the tracer's (linked in).
Written WriteEvents(const std::vector<ApiEvent>& events,
                    JsonRunConfig config = JsonRunConfig()) {
  config.sdk_kinds = SdkBufferKindNames();
  const ScratchDir dir("json_writer_test");
  const std::string path = dir / "t_results.json";
  RunInfo info;
  info.pid = static_cast<uint32_t>(getpid());
  info.hostname = "host";
  info.command = "prog a b";
  {
    JsonWriter writer(path, info, std::move(config));
    for (const ApiEvent& e : events) writer.Write(e);
    writer.Finish(info);
  }
  return Written{Read(path)["rocprofiler-sdk-tool"][0]};
}

ApiEvent Event(const OpName* op, uint64_t correlation_id) {
  ApiEvent e{};
  e.op = op;
  e.correlation_id = correlation_id;
  e.start_ns = 100 * correlation_id;
  e.end_ns = 100 * correlation_id + 50;
  e.tid = 7;
  return e;
}

TEST(JsonWriter, KindsAreRocprofilerSdksOfEachCall) {
  OpName core{Category::kHsa, "hsa_init", "HSA_CORE_API", 0};
  OpName amd{Category::kHsa, "hsa_amd_memory_pool_get_info", "HSA_AMD_EXT_API",
             1};
  OpName image{Category::kHsa, "hsa_ext_image_create", "HSA_IMAGE_EXT_API", 2};
  OpName runtime{Category::kHip, "hipMalloc", "HIP_RUNTIME_API_EXT", 3};
  OpName compiler{Category::kHip, "__hipRegisterFatBinary",
                  "HIP_COMPILER_API_EXT", 4};
  OpName kfd{Category::kHsa, "hsaKmtOpenKFD", "KFD_API", 5};
  const Written w =
      WriteEvents({Event(&core, 1), Event(&amd, 2), Event(&image, 3),
                   Event(&runtime, 4), Event(&compiler, 5), Event(&kfd, 6)});
  using Names = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(w.Names("hsa_api"),
            (Names{{"HSA_CORE_API", "hsa_init"},
                   {"HSA_AMD_EXT_API", "hsa_amd_memory_pool_get_info"},
                   {"HSA_IMAGE_EXT_API", "hsa_ext_image_create"}}));
  // libhsakmt calls: roctrace's own section and kind, not rocprofv3's.
  EXPECT_EQ(w.Names("kfd_api"), (Names{{"KFD_API", "hsaKmtOpenKFD"}}));
  // rocprofv3 1.0.0 records HIP calls with their arguments: the _EXT
  // kinds.
  EXPECT_EQ(w.Names("hip_api"),
            (Names{{"HIP_RUNTIME_API_EXT", "hipMalloc"},
                   {"HIP_COMPILER_API_EXT", "__hipRegisterFatBinary"}}));
  // The kinds are rocprofiler_buffer_tracing_kind_t's values.
  const json& hsa = w.tool["buffer_records"]["hsa_api"];
  EXPECT_EQ(hsa[0]["kind"], 1);
  EXPECT_EQ(hsa[1]["kind"], 2);
  EXPECT_EQ(hsa[2]["kind"], 3);
  EXPECT_EQ(w.tool["buffer_records"]["hip_api"][0]["kind"], 21);
  EXPECT_EQ(w.tool["buffer_records"]["hip_api"][1]["kind"], 22);
  EXPECT_EQ(w.tool["buffer_records"]["hip_api"][0]["size"], 176);
  const json& strings = w.tool["strings"]["buffer_records"];
  EXPECT_EQ(strings[0]["kind"], "NONE");
  EXPECT_EQ(strings[11]["kind"], "KERNEL_DISPATCH");
  EXPECT_EQ(strings[32]["kind"], "MARKER_CORE_RANGE_API");
}

TEST(JsonWriter, RoctxEventsAreRangeApiOperationsWithTheirMessages) {
  OpName mark{Category::kMarker, "checkpoint", "MARKER_CORE_RANGE_API", 0};
  OpName pushed{Category::kMarker, "outer", "MARKER_CORE_RANGE_API", 1};
  OpName started{Category::kMarker, "async", "MARKER_CORE_RANGE_API", 2};
  ApiEvent m = Event(&mark, 3);
  m.instant = true;
  m.end_ns = m.start_ns;
  ApiEvent s = Event(&started, 9);
  s.async_range_id = 4;
  const Written w = WriteEvents({m, Event(&pushed, 5), s});
  using Names = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(w.Names("marker_api"),
            (Names{{"MARKER_CORE_RANGE_API", "roctxMarkA"},
                   {"MARKER_CORE_RANGE_API", "roctxThreadRangeA"},
                   {"MARKER_CORE_RANGE_API", "roctxProcessRangeA"}}));
  // strings.marker_api: correlation ID -> message, as rocprofv3 writes its
  // map ([{"key": ..., "value": ...}, ...]).
  std::map<uint64_t, std::string> messages;
  for (const json& entry : w.tool["strings"]["marker_api"]) {
    messages[entry["key"].get<uint64_t>()] = entry["value"].get<std::string>();
  }
  EXPECT_EQ(messages, (std::map<uint64_t, std::string>{
                          {3, "checkpoint"}, {5, "outer"}, {9, "async"}}));
  for (const json& r : w.tool["buffer_records"]["marker_api"]) {
    EXPECT_EQ(messages.count(r["correlation_id"]["internal"].get<uint64_t>()),
              1u);
  }
}

TEST(JsonWriter, MetadataHasTheNodeTheCommandAndTheConfig) {
  JsonRunConfig config;
  config.raw_output_file = "%hostname%/%pid%";
  config.output_file = "host/42";
  config.csv_output = true;
  config.summary_groups = {"HIP|HSA"};
  const Written w = WriteEvents({}, config);
  const json& meta = w.tool["metadata"];
  for (const char* key :
       {"id", "hash", "machine_id", "system_name", "hostname", "release",
        "version", "hardware_name", "domain_name"}) {
    EXPECT_TRUE(meta["node"].contains(key)) << key;
  }
  EXPECT_EQ(meta["node"]["hostname"], "host");
  EXPECT_EQ(meta["node"]["system_name"], "Linux");
  EXPECT_TRUE(meta["command"].is_array());
  EXPECT_FALSE(meta["command"].empty());
  const json& c = meta["config"];
  EXPECT_EQ(c["raw_output_file"], "%hostname%/%pid%");
  EXPECT_EQ(c["output_file"], "host/42");
  EXPECT_EQ(c["csv_output"], true);
  EXPECT_EQ(c["json_output"], true);
  EXPECT_EQ(c["summary_groups"], json::array({"HIP|HSA"}));
  for (const char* key :
       {"output_path", "tmp_directory", "raw_output_path", "raw_tmp_directory",
        "perfetto_shmem_size_hint", "perfetto_buffer_size",
        "perfetto_buffer_fill_policy", "perfetto_backend", "summary",
        "summary_per_domain", "summary_unit", "summary_file", "pftrace_output",
        "otf2_output", "summary_output", "rocpd_output", "kernel_rename",
        "group_by_queue"}) {
    EXPECT_TRUE(c.contains(key)) << key;
  }
}

TEST(JsonWriter, AgentsAreFullAgentRecords) {
  // The host is always described (/proc/cpuinfo); a GPU a record names is
  // written too.
  OpName copy{Category::kMemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE",
              "MEMORY_COPY", 0};
  copy.direction = CopyDirection::kHostToDevice;
  DeviceWork work{};
  work.device_id = 0;
  ApiEvent e = Event(&copy, 1);
  e.device = &work;
  const Written w = WriteEvents({e});
  const json& agents = w.tool["agents"];
  ASSERT_GE(agents.size(), 2u);
  // rocprofiler_agent_v0_t's fields as rocprofv3 serialises them, and its
  // gpu_index.
  const std::vector<std::string> want = {"size",
                                         "id",
                                         "type",
                                         "cpu_cores_count",
                                         "simd_count",
                                         "mem_banks_count",
                                         "caches_count",
                                         "io_links_count",
                                         "cpu_core_id_base",
                                         "simd_id_base",
                                         "max_waves_per_simd",
                                         "lds_size_in_kb",
                                         "gds_size_in_kb",
                                         "num_gws",
                                         "wave_front_size",
                                         "num_xcc",
                                         "cu_count",
                                         "array_count",
                                         "num_shader_banks",
                                         "simd_arrays_per_engine",
                                         "cu_per_simd_array",
                                         "simd_per_cu",
                                         "max_slots_scratch_cu",
                                         "gfx_target_version",
                                         "vendor_id",
                                         "device_id",
                                         "location_id",
                                         "domain",
                                         "drm_render_minor",
                                         "num_sdma_engines",
                                         "num_sdma_xgmi_engines",
                                         "num_sdma_queues_per_engine",
                                         "num_cp_queues",
                                         "max_engine_clk_ccompute",
                                         "max_engine_clk_fcompute",
                                         "sdma_fw_version",
                                         "fw_version",
                                         "capability",
                                         "cu_per_engine",
                                         "max_waves_per_cu",
                                         "family_id",
                                         "workgroup_max_size",
                                         "grid_max_size",
                                         "local_mem_size",
                                         "hive_id",
                                         "gpu_id",
                                         "workgroup_max_dim",
                                         "grid_max_dim",
                                         "name",
                                         "vendor_name",
                                         "product_name",
                                         "model_name",
                                         "node_id",
                                         "logical_node_id",
                                         "logical_node_type_id",
                                         "runtime_visibility",
                                         "uuid",
                                         "mem_banks",
                                         "caches",
                                         "io_links",
                                         "gpu_index"};
  std::set<uint64_t> handles;
  std::set<int> types;
  for (const json& a : agents) {
    std::vector<std::string> keys;
    for (auto it = a.begin(); it != a.end(); ++it) keys.push_back(it.key());
    // nlohmann's json orders keys by name: compared as sets.
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()),
              std::set<std::string>(want.begin(), want.end()));
    EXPECT_EQ(a["size"], 304);
    handles.insert(a["id"]["handle"].get<uint64_t>());
    types.insert(a["type"].get<int>());
    EXPECT_EQ(a["gpu_index"],
              a["type"] == 2 ? a["logical_node_type_id"] : json(-1));
    EXPECT_EQ(a["workgroup_max_dim"].size(), 3u);
  }
  EXPECT_EQ(handles.size(), agents.size());  // unique
  EXPECT_EQ(types, (std::set<int>{1, 2}));   // CPU and GPU
  // The copy's agents are listed agents.
  const json& r = w.tool["buffer_records"]["memory_copy"][0];
  EXPECT_EQ(handles.count(r["src_agent_id"]["handle"].get<uint64_t>()), 1u);
  EXPECT_EQ(handles.count(r["dst_agent_id"]["handle"].get<uint64_t>()), 1u);
}

std::set<std::string> Keys(const json& record) {
  std::set<std::string> keys;
  for (auto it = record.begin(); it != record.end(); ++it) {
    keys.insert(it.key());
  }
  return keys;
}

// Each section's records have exactly the fields rocprofv3 1.0.0 writes of
// its record type: the SDK's plain API record for HSA calls and rocTX, the
// _EXT record (arguments, returned value) and the call's stream for HIP,
// the stream for dispatches, copies and allocations, and the scratch
// record as the SDK's 1.0.0 struct has it (no allocation size).
TEST(JsonWriter, EachRecordHasTheFieldsOfRocprofv3sRecordType) {
  OpName hsa{Category::kHsa, "hsa_init", "HSA_CORE_API", 0};
  hsa.returns_status = true;
  OpName hip{Category::kHip, "hipMalloc", "HIP_RUNTIME_API_EXT", 1};
  hip.returns_status = true;
  OpName marker{Category::kMarker, "outer", "MARKER_CORE_RANGE_API", 2};
  OpName kernel{Category::kKernel, "k", "KERNEL_DISPATCH", 3};
  kernel.kernel_id = 1;
  OpName copy{Category::kMemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE",
              "MEMORY_COPY", 4};
  copy.direction = CopyDirection::kHostToDevice;
  OpName scratch{Category::kScratchMemory, "SCRATCH_MEMORY_ALLOC",
                 "SCRATCH_MEMORY", 5};
  OpName alloc{Category::kMemoryAllocation, "MEMORY_ALLOCATION_ALLOCATE",
               "MEMORY_ALLOCATION", 6};
  ApiEvent failed_hsa = Event(&hsa, 1);
  failed_hsa.failed = true;
  failed_hsa.retval = 4096;
  ApiEvent failed_hip = Event(&hip, 2);
  failed_hip.failed = true;
  failed_hip.retval = 2;
  DeviceWork kernel_work{};
  kernel_work.device_id = 0;
  kernel_work.dispatch_id = 1;
  kernel_work.launch = KernelLaunch{};
  ApiEvent k = Event(&kernel, 4);
  k.device = &kernel_work;
  DeviceWork copy_work{};
  copy_work.device_id = 0;
  ApiEvent c = Event(&copy, 5);
  c.device = &copy_work;
  c.bytes = 64;
  DeviceWork scratch_work{};
  scratch_work.device_id = 0;
  scratch_work.scratch = ScratchUse{};
  scratch_work.scratch.size = 4096;
  ApiEvent sc = Event(&scratch, 6);
  sc.device = &scratch_work;
  DeviceWork alloc_work{};
  alloc_work.device_id = -1;
  alloc_work.allocation = MemoryAllocation{};
  alloc_work.allocation.size = 64;
  alloc_work.allocation.address = 0x7f00dead0040;
  ApiEvent a = Event(&alloc, 7);
  a.device = &alloc_work;
  const Written w =
      WriteEvents({failed_hsa, failed_hip, Event(&marker, 3), k, c, sc, a});
  const json& records = w.tool["buffer_records"];
  using Fields = std::set<std::string>;
  const Fields api{"size",
                   "kind",
                   "operation",
                   "correlation_id",
                   "start_timestamp",
                   "end_timestamp",
                   "thread_id"};
  EXPECT_EQ(Keys(records["hsa_api"][0]), api);
  EXPECT_EQ(Keys(records["marker_api"][0]), api);
  Fields hip_fields = api;
  hip_fields.insert({"args", "retval", "stream_id"});
  EXPECT_EQ(Keys(records["hip_api"][0]), hip_fields);
  EXPECT_EQ(records["hip_api"][0]["retval"]["uint64_t_retval"], 2);
  EXPECT_EQ(records["hip_api"][0]["args"], json::array());
  EXPECT_EQ(records["hip_api"][0]["stream_id"]["handle"], 0);
  EXPECT_EQ(Keys(records["kernel_dispatch"][0]),
            (Fields{"size", "kind", "operation", "thread_id", "correlation_id",
                    "start_timestamp", "end_timestamp", "dispatch_info",
                    "stream_id"}));
  EXPECT_EQ(Keys(records["memory_copy"][0]),
            (Fields{"size", "kind", "operation", "thread_id", "correlation_id",
                    "start_timestamp", "end_timestamp", "dst_agent_id",
                    "src_agent_id", "bytes", "stream_id"}));
  EXPECT_EQ(Keys(records["memory_allocation"][0]),
            (Fields{"size", "kind", "operation", "thread_id", "correlation_id",
                    "start_timestamp", "end_timestamp", "agent_id", "address",
                    "allocation_size", "stream_id"}));
  // rocprofiler-sdk 1.0.0's address: a string, 0x and 16 hex digits.
  EXPECT_EQ(records["memory_allocation"][0]["address"], "0x00007f00dead0040");
  EXPECT_EQ(records["memory_allocation"][0]["allocation_size"], 64);
  EXPECT_EQ(
      Keys(records["scratch_memory"][0]),
      (Fields{"size", "kind", "operation", "agent_id", "queue_id", "thread_id",
              "start_timestamp", "end_timestamp", "correlation_id", "flags"}));
}

// With the tracer's SDK numbering, a record's operation is its name's SDK
// number and strings.buffer_records lists every operation of the kind, as
// rocprofv3 writes them; a dispatch is the SDK's completion record; a name
// the SDK does not have comes after the kind's list.
// rocprofv3 writes every HIP record's retval, from a union zeroed before
// the call: a void call's is 0, a call returning another type than the
// status has its result's bits, which roctrace carries after the call's
// arguments (none without them: nothing to write).
TEST(JsonWriter, HipResultsOfOtherTypesAreTheirBits) {
  OpName text{Category::kHip, "hipGetErrorString", "HIP_RUNTIME_API_EXT", 0};
  text.retval_in_args = true;
  OpName nothing{Category::kHip, "hipVoidCall", "HIP_RUNTIME_API_EXT", 1};
  nothing.returns_void = true;
  static const ApiArgs::Printers kNoPrinters{
      [](const ApiArgs&, ApiArgs::Visit, void*) {},
      [](const ApiArgs&, ApiArgs::ValueVisit, void*) {},
      [](const ApiArgs&, uint32_t, const char*, const char*, const char*,
         size_t) { return ApiArg{}; }};
  const uint64_t bytes[2] = {1, 0x7f0012345678};
  const ApiArgs recorded{&kNoPrinters, 0, 0, sizeof(bytes),
                         reinterpret_cast<const unsigned char*>(bytes)};
  ApiEvent with = Event(&text, 1);
  with.args = &recorded;
  ApiEvent without = Event(&text, 2);  // its arguments not recorded
  ApiEvent void_call = Event(&nothing, 3);
  void_call.retval = 5;  // not a status: not written
  const Written w = WriteEvents({with, without, void_call});
  const json& hip = w.tool["buffer_records"]["hip_api"];
  ASSERT_EQ(hip.size(), 3u);
  EXPECT_EQ(hip[0]["retval"]["uint64_t_retval"], 0x7f0012345678u);
  EXPECT_FALSE(hip[1].contains("retval"));
  EXPECT_EQ(hip[2]["retval"]["uint64_t_retval"], 0u);
}

// Every argument's type, name and value as a JSON reader gets them back
// (quotes, backslashes and controls escaped, wherever they fall in the
// text; bytes that are not UTF-8 made valid), the same for each call of an
// operation, and numbers of every width exact.
TEST(JsonWriter, ArgumentsAndNumbersReadBackAsWritten) {
  OpName op{Category::kHip, "hipSetDevice", "HIP_RUNTIME_API_EXT", 0};
  op.returns_status = true;
  static const std::string kLongType(150, 'T');  // longer than most
  static const char* const kValues[] = {
      "plain",
      "a\"quote and a \\backslash, then more than eight bytes",
      "\x01\x1f controls\tand\nlines \x7f",
      "twelve bytes\"",
      "\xff\xfe not UTF-8 \xc3",
      "caf\xc3\xa9 is UTF-8",
      ""};
  struct Printers {
    static void Values(const ApiArgs&, ApiArgs::ValueVisit visit, void* user) {
      static const char kType[] = "int";
      static const char kOther[] = "long_type";
      static const char* const kNames[] = {"a", "b", "c", "d", "e", "f", "g"};
      for (uint32_t i = 0; i < std::size(kValues); ++i) {
        visit(i, i == 3 ? kOther : kType, kNames[i], kValues[i],
              std::strlen(kValues[i]), user);
      }
    }
    static ApiArg Spell(const ApiArgs&, uint32_t position,
                        const char* header_type, const char* name,
                        const char* value, size_t size) {
      const bool other = std::strcmp(header_type, "long_type") == 0;
      return ApiArg{position,
                    header_type,
                    std::strlen(header_type),
                    other ? kLongType.c_str() : "i\"\\",
                    name,
                    std::strlen(name),
                    value,
                    size};
    }
  };
  static const ApiArgs::Printers kPrinters{
      [](const ApiArgs&, ApiArgs::Visit, void*) {}, &Printers::Values,
      &Printers::Spell};
  const uint64_t bytes[1] = {0};
  const ApiArgs recorded{&kPrinters, 0, 0, sizeof(bytes),
                         reinterpret_cast<const unsigned char*>(bytes)};
  const uint64_t kTimes[] = {0,
                             9,
                             10,
                             99999999,
                             100000000,
                             1234567890123456ull,
                             10000000000000000ull,
                             18446744073709551615ull};
  std::vector<ApiEvent> events;
  for (uint64_t t : kTimes) {
    ApiEvent e = Event(&op, events.size() + 1);
    e.args = &recorded;
    e.start_ns = t;
    e.end_ns = t;
    e.tid = static_cast<uint32_t>(t);
    events.push_back(e);
  }
  const Written w = WriteEvents(events);
  const json& hip = w.tool["buffer_records"]["hip_api"];
  ASSERT_EQ(hip.size(), std::size(kTimes));
  for (size_t i = 0; i < std::size(kTimes); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(hip[i]["start_timestamp"].get<uint64_t>(), kTimes[i]);
    EXPECT_EQ(hip[i]["end_timestamp"].get<uint64_t>(), kTimes[i]);
    EXPECT_EQ(hip[i]["thread_id"].get<uint64_t>(),
              static_cast<uint32_t>(kTimes[i]));
    const json& args = hip[i]["args"];
    ASSERT_EQ(args.size(), std::size(kValues));
    for (size_t a = 0; a < std::size(kValues); ++a) {
      EXPECT_EQ(args[a]["type"], a == 3 ? kLongType : "i\"\\");
      EXPECT_EQ(args[a]["name"], std::string(1, static_cast<char>('a' + a)));
      EXPECT_EQ(args[a]["value"], MakeValidUtf8(kValues[a]));
    }
  }
  EXPECT_EQ(hip[0]["args"][2]["value"], "\x01\x1f controls\tand\nlines \x7f");
  EXPECT_EQ(hip[0]["args"][4]["value"].get<std::string>().substr(0, 6),
            "\xef\xbf\xbd\xef\xbf\xbd");  // U+FFFD for each bad byte
}

TEST(JsonWriter, OperationsAreTheSdksNumbersAndListsAreComplete) {
  JsonRunConfig config;
  config.sdk_operations.resize(33);
  config.sdk_operations[1] = {"hsa_init", "hsa_shut_down",
                              "hsa_system_get_info"};
  config.sdk_operations[10] = {"", "MEMORY_COPY_HOST_TO_HOST",
                               "MEMORY_COPY_HOST_TO_DEVICE"};
  config.sdk_operations[11] = {"", "KERNEL_DISPATCH_ENQUEUE",
                               "KERNEL_DISPATCH_COMPLETE"};
  config.sdk_operations[21] = {"hipMalloc", "hipFree"};
  OpName info{Category::kHsa, "hsa_system_get_info", "HSA_CORE_API", 0};
  OpName init{Category::kHsa, "hsa_init", "HSA_CORE_API", 1};
  OpName mine{Category::kHsa, "hsa_not_in_the_sdk", "HSA_CORE_API", 2};
  OpName hip_free{Category::kHip, "hipFree", "HIP_RUNTIME_API_EXT", 3};
  OpName kernel{Category::kKernel, "k", "KERNEL_DISPATCH", 4};
  kernel.kernel_id = 1;
  OpName copy{Category::kMemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE",
              "MEMORY_COPY", 5};
  DeviceWork kernel_work{};
  kernel_work.launch = KernelLaunch{};
  ApiEvent k = Event(&kernel, 5);
  k.device = &kernel_work;
  DeviceWork copy_work{};
  ApiEvent c = Event(&copy, 6);
  c.device = &copy_work;
  const Written w = WriteEvents({Event(&info, 1), Event(&init, 2),
                                 Event(&mine, 3), Event(&hip_free, 4), k, c},
                                config);
  const json& records = w.tool["buffer_records"];
  EXPECT_EQ(records["hsa_api"][0]["operation"], 2);
  EXPECT_EQ(records["hsa_api"][1]["operation"], 0);
  EXPECT_EQ(records["hsa_api"][2]["operation"], 3);
  EXPECT_EQ(records["hip_api"][0]["operation"], 1);
  EXPECT_EQ(records["kernel_dispatch"][0]["operation"], 2);
  EXPECT_EQ(records["memory_copy"][0]["operation"], 2);
  const json& strings = w.tool["strings"]["buffer_records"];
  EXPECT_EQ(strings[1]["operations"],
            json({"hsa_init", "hsa_shut_down", "hsa_system_get_info",
                  "hsa_not_in_the_sdk"}));
  EXPECT_EQ(strings[21]["operations"], json({"hipMalloc", "hipFree"}));
  EXPECT_EQ(strings[11]["operations"],
            json({"", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"}));
  using Names = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(w.Names("hsa_api"),
            (Names{{"HSA_CORE_API", "hsa_system_get_info"},
                   {"HSA_CORE_API", "hsa_init"},
                   {"HSA_CORE_API", "hsa_not_in_the_sdk"}}));
}

// The writer numbers an operation by the name it is given: a HIP >= 6
// function renamed with an ABI suffix (hipChooseDeviceR0600) comes named as
// the SDK names it already (the converter's SdkHipName), so the writer
// never merges two names into one operation, whatever order they come in.
TEST(JsonWriter, EachHipNameIsItsOwnOperationInEitherOrder) {
  OpName choose{Category::kHip, "hipChooseDevice", "HIP_RUNTIME_API_EXT", 0};
  OpName renamed{Category::kHip, "hipChooseDeviceR0600", "HIP_RUNTIME_API_EXT",
                 1};
  using Names = std::vector<std::pair<std::string, std::string>>;
  for (bool sdk : {false, true}) {
    JsonRunConfig config;
    if (sdk) {
      config.sdk_operations.resize(33);
      config.sdk_operations[21] = {"hipChooseDevice", "hipFree"};
    }
    for (bool base_first : {true, false}) {
      const Written w =
          base_first
              ? WriteEvents({Event(&choose, 1), Event(&renamed, 2)}, config)
              : WriteEvents({Event(&renamed, 1), Event(&choose, 2)}, config);
      const Names expected =
          base_first ? Names{{"HIP_RUNTIME_API_EXT", "hipChooseDevice"},
                             {"HIP_RUNTIME_API_EXT", "hipChooseDeviceR0600"}}
                     : Names{{"HIP_RUNTIME_API_EXT", "hipChooseDeviceR0600"},
                             {"HIP_RUNTIME_API_EXT", "hipChooseDevice"}};
      EXPECT_EQ(w.Names("hip_api"), expected) << sdk << base_first;
      const json& records = w.tool["buffer_records"]["hip_api"];
      ASSERT_EQ(records.size(), 2u);
      EXPECT_NE(records[0]["operation"], records[1]["operation"]);
      if (sdk) {
        // The SDK's slot keeps its number; the other name comes after the
        // SDK's list.
        EXPECT_EQ(records[base_first ? 0 : 1]["operation"], 0);
        EXPECT_EQ(records[base_first ? 1 : 0]["operation"], 2);
      }
    }
  }
}

}  // namespace
}  // namespace roctrace
