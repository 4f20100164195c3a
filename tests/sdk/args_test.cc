// Argument iteration over every operation of every API kind, checked against
// the parameter lists the generator read from the ROCm headers
// (sdk_arg_expectations.txt, written from the model independently of the
// printers and of the front end's type spelling).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"

namespace {

std::string g_expectations_path;

// The SDK's callback fills its retval union with the bytes at roctracer's
// retval union (every member of both at offset 0): those bytes must lie
// inside roctracer's record, whose union comes after `args` for HIP and
// before it for HSA.
static_assert(offsetof(hip_api_data_t, hipError_t_retval) +
                      sizeof(rocprofiler_hip_api_retval_t) <=
                  sizeof(hip_api_data_t),
              "HIP retval union past roctracer's record");
static_assert(offsetof(hsa_api_data_t, hsa_status_t_retval) +
                      sizeof(rocprofiler_hsa_api_retval_t) <=
                  offsetof(hsa_api_data_t, args),
              "HSA retval union overlaps roctracer's args");

struct Param {
  std::string type, name;
  int32_t indirection;
};
struct OpExpectation {
  std::string kind, name;
  int32_t op;
  std::vector<Param> params;
};

std::vector<OpExpectation> Load() {
  std::vector<OpExpectation> out;
  std::ifstream in(g_expectations_path);
  EXPECT_TRUE(in.good()) << g_expectations_path;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t')) f.push_back(field);
    OpExpectation e;
    e.kind = f.at(0);
    e.op = std::stoi(f.at(1));
    e.name = f.at(2);
    const size_t n = std::stoul(f.at(3));
    EXPECT_EQ(f.size(), 4 + n) << line;
    for (size_t i = 4; i < f.size(); ++i) {
      // type|name|indirection (a type may itself contain '|': never does in
      // C, but split from the right anyway).
      const size_t bar2 = f[i].rfind('|');
      const size_t bar1 = f[i].rfind('|', bar2 - 1);
      e.params.push_back({f[i].substr(0, bar1),
                          f[i].substr(bar1 + 1, bar2 - bar1 - 1),
                          std::stoi(f[i].substr(bar2 + 1))});
    }
    out.push_back(e);
  }
  return out;
}

rocprofiler_callback_tracing_kind_t KindByName(const std::string& name) {
  for (int k = 1; k < ROCPROFILER_CALLBACK_TRACING_LAST; ++k) {
    const char* n = nullptr;
    const auto kind = static_cast<rocprofiler_callback_tracing_kind_t>(k);
    rocprofiler_query_callback_tracing_kind_name(kind, &n, nullptr);
    if (name == n) return kind;
  }
  return ROCPROFILER_CALLBACK_TRACING_NONE;
}

struct Seen {
  uint32_t number;
  const void* addr;
  int32_t indirection;
  std::string type, name, value;
  int32_t derefs;
};

struct Sink {
  std::vector<Seen> args;
  int stop_after = -1;
};

int Collect(rocprofiler_callback_tracing_kind_t, int32_t, uint32_t number,
            const void* const addr, int32_t indirection, const char* type,
            const char* name, const char* value, int32_t derefs, void* data) {
  auto* s = static_cast<Sink*>(data);
  s->args.push_back({number, addr, indirection, type, name, value, derefs});
  return static_cast<int>(s->args.size()) == s->stop_after ? 1 : 0;
}

// Room for any API payload, HSA's or HIP's (uninitialised storage: HIP's
// union holds types with constructors).
union AnyPayload {
  AnyPayload() {}
  rocprofiler_callback_tracing_hsa_api_data_t hsa;
  rocprofiler_callback_tracing_hip_api_data_t hip;
  char bytes[sizeof(rocprofiler_callback_tracing_hip_api_data_t) >
                     sizeof(rocprofiler_callback_tracing_hsa_api_data_t)
                 ? sizeof(rocprofiler_callback_tracing_hip_api_data_t)
                 : sizeof(rocprofiler_callback_tracing_hsa_api_data_t)];
};

rocprofiler_callback_tracing_record_t Record(
    rocprofiler_callback_tracing_kind_t kind, int32_t op,
    rocprofiler_callback_phase_t phase, void* payload) {
  rocprofiler_callback_tracing_record_t r;
  std::memset(&r, 0, sizeof(r));
  r.kind = kind;
  r.operation = op;
  r.phase = phase;
  r.payload = payload;
  return r;
}

TEST(Args, EveryOperationOfEveryApiKindMatchesItsPrototype) {
  const auto ops = Load();
  ASSERT_GT(ops.size(), 500u);
  size_t checked = 0;
  for (const OpExpectation& e : ops) {
    SCOPED_TRACE(e.kind + " " + e.name);
    const auto kind = KindByName(e.kind);
    ASSERT_NE(kind, ROCPROFILER_CALLBACK_TRACING_NONE);
    const char* op_name = nullptr;
    ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
              rocprofiler_query_callback_tracing_kind_operation_name(
                  kind, e.op, &op_name, nullptr));
    EXPECT_EQ(e.name, op_name);
    // NULL pointers (all-zero payload) followed as deep as allowed, then
    // garbage pointers (every byte 0x01) at depth 0: no crash either way.
    for (const uint8_t fill : {uint8_t{0}, uint8_t{1}}) {
      for (auto phase : {ROCPROFILER_CALLBACK_PHASE_ENTER,
                         ROCPROFILER_CALLBACK_PHASE_EXIT}) {
        AnyPayload p;
        std::memset(p.bytes, fill, sizeof(p.bytes));
        Sink sink;
        const int32_t depth = fill == 0 ? 8 : 0;
        ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
                  rocprofiler_iterate_callback_tracing_kind_operation_args(
                      Record(kind, e.op, phase, &p), &Collect, depth, &sink));
        ASSERT_EQ(sink.args.size(), e.params.size());
        for (size_t i = 0; i < sink.args.size(); ++i) {
          const Seen& a = sink.args[i];
          EXPECT_EQ(a.number, i);
          EXPECT_EQ(a.name, e.params[i].name);
          EXPECT_EQ(a.type, e.params[i].type);
          EXPECT_EQ(a.indirection, e.params[i].indirection) << a.type;
          EXPECT_EQ(a.derefs, 0) << a.type << " " << a.value;
          // The address is the stored value inside the record's payload.
          EXPECT_GE(static_cast<const char*>(a.addr), p.bytes);
          EXPECT_LT(static_cast<const char*>(a.addr),
                    p.bytes + sizeof(p.bytes));
        }
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked,
            static_cast<size_t>(ROCPROFILER_HSA_CORE_API_ID_LAST +
                                ROCPROFILER_HSA_AMD_EXT_API_ID_LAST +
                                ROCPROFILER_HSA_IMAGE_EXT_API_ID_LAST +
                                ROCPROFILER_HSA_FINALIZE_EXT_API_ID_LAST +
                                ROCPROFILER_HIP_RUNTIME_API_ID_LAST +
                                ROCPROFILER_HIP_COMPILER_API_ID_LAST));
}

TEST(Args, OutParameterIsFollowedAtExitOnlyAndWithinMaxDereferenceCount) {
  AnyPayload p;
  std::memset(p.bytes, 0, sizeof(p.bytes));
  bool result = true;
  auto& a = p.hsa.args.hsa_system_extension_supported;
  a.extension = 1;
  a.version_major = 1;
  a.result = &result;
  const auto kind = ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API;
  const int32_t op = ROCPROFILER_HSA_CORE_API_ID_hsa_system_extension_supported;

  Sink enter;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(kind, op, ROCPROFILER_CALLBACK_PHASE_ENTER, &p), &Collect, 4,
      &enter);
  ASSERT_EQ(enter.args.size(), 4u);
  EXPECT_EQ(enter.args[3].name, "result");
  EXPECT_EQ(enter.args[3].type, "bool*");
  EXPECT_EQ(enter.args[3].indirection, 1);
  EXPECT_EQ(enter.args[3].derefs, 0);
  EXPECT_EQ(enter.args[3].addr, &a.result);
  EXPECT_EQ(enter.args[0].value, "1");

  Sink exit;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(kind, op, ROCPROFILER_CALLBACK_PHASE_EXIT, &p), &Collect, 4,
      &exit);
  ASSERT_EQ(exit.args.size(), 4u);
  EXPECT_EQ(exit.args[3].derefs, 1);
  EXPECT_EQ(exit.args[3].value, "true");

  Sink capped;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(kind, op, ROCPROFILER_CALLBACK_PHASE_EXIT, &p), &Collect, 0,
      &capped);
  ASSERT_EQ(capped.args.size(), 4u);
  EXPECT_EQ(capped.args[3].derefs, 0);
  EXPECT_NE(capped.args[3].value, "true");
}

TEST(Args, StringsEnumsAndHandlesUseTheHeadersSpelling) {
  AnyPayload p;
  std::memset(p.bytes, 0, sizeof(p.bytes));
  p.hsa.args.hsa_agent_get_info.agent.handle = 42;
  p.hsa.args.hsa_agent_get_info.attribute = HSA_AGENT_INFO_NAME;
  Sink s;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
             ROCPROFILER_HSA_CORE_API_ID_hsa_agent_get_info,
             ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
      &Collect, 1, &s);
  ASSERT_EQ(s.args.size(), 3u);
  EXPECT_EQ(s.args[0].type, "hsa_agent_t");
  EXPECT_NE(s.args[0].value.find("42"), std::string::npos);
  EXPECT_EQ(s.args[1].value, "HSA_AGENT_INFO_NAME");
  EXPECT_EQ(s.args[2].type, "void*");
  EXPECT_EQ(s.args[2].value, "NULL");

  std::memset(p.bytes, 0, sizeof(p.bytes));
  p.hip.args.hipModuleGetFunction.kname = "my_kernel";
  Sink h;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
             ROCPROFILER_HIP_RUNTIME_API_ID_hipModuleGetFunction,
             ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
      &Collect, 1, &h);
  ASSERT_EQ(h.args.size(), 3u);
  EXPECT_EQ(h.args[0].type, "hipFunction_t*");
  EXPECT_EQ(h.args[2].type, "const char*");
  EXPECT_EQ(h.args[2].name, "kname");
  EXPECT_EQ(h.args[2].value, "\"my_kernel\"");
  EXPECT_EQ(h.args[2].derefs, 1);
}

TEST(Args, MarkerArguments) {
  rocprofiler_callback_tracing_marker_api_data_t p;
  std::memset(&p, 0, sizeof(p));
  p.size = sizeof(p);
  p.args.roctxRangePushA.message = "phase \"one\"";
  Sink s;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                       ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  ASSERT_EQ(s.args.size(), 1u);
  EXPECT_EQ(s.args[0].name, "message");
  EXPECT_EQ(s.args[0].type, "const char*");
  EXPECT_EQ(s.args[0].value, "\"phase \\\"one\\\"\"");
  EXPECT_EQ(s.args[0].addr, &p.args.roctxRangePushA.message);

  Sink pop;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
             ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
             ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
      &Collect, 1, &pop);
  EXPECT_TRUE(pop.args.empty());

  p.args.roctxRangeStop.id = 77;
  Sink stop;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
             ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop,
             ROCPROFILER_CALLBACK_PHASE_EXIT, &p),
      &Collect, 1, &stop);
  ASSERT_EQ(stop.args.size(), 1u);
  EXPECT_EQ(stop.args[0].type, "roctx_range_id_t");
  EXPECT_EQ(stop.args[0].value, "77");
}

TEST(Args, IterationStopsWhenTheCallbackReturnsNonZero) {
  AnyPayload p;
  std::memset(p.bytes, 0, sizeof(p.bytes));
  Sink s;
  s.stop_after = 2;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                       ROCPROFILER_HSA_CORE_API_ID_hsa_agent_get_info,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  EXPECT_EQ(s.args.size(), 2u);
}

// A GPU kind's fields, from a zeroed payload: NULL strings are not
// followed, and a callback returning non-zero stops the iteration.
TEST(Args, GpuKindsListTheirRecordFields) {
  AnyPayload p;
  std::memset(p.bytes, 0, sizeof(p.bytes));
  Sink s;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                       ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER,
                       ROCPROFILER_CALLBACK_PHASE_LOAD, &p),
                &Collect, 1, &s));
  ASSERT_EQ(s.args.size(), 13u);
  EXPECT_EQ(s.args[0].name, "kernel_id");
  EXPECT_EQ(s.args[2].name, "kernel_name");
  EXPECT_EQ(s.args[2].type, "const char*");
  EXPECT_EQ(s.args[2].derefs, 0);
  Sink memory;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
                       ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST,
                       ROCPROFILER_CALLBACK_PHASE_EXIT, &p),
                &Collect, 1, &memory));
  ASSERT_EQ(memory.args.size(), 7u);
  EXPECT_EQ(memory.args[4].name, "bytes");
  EXPECT_EQ(memory.args[4].value, "0");
  Sink stopped;
  stopped.stop_after = 3;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      Record(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
             ROCPROFILER_KERNEL_DISPATCH_COMPLETE,
             ROCPROFILER_CALLBACK_PHASE_NONE, &p),
      &Collect, 1, &stopped);
  EXPECT_EQ(stopped.args.size(), 3u);
}

// SCRATCH_MEMORY's payload: its fields, then the member of `args` that
// `args_kind` names (an allocation's END: dispatch, bytes, waves).
TEST(Args, ScratchMemoryListsItsPayloadAndEventArguments) {
  rocprofiler_callback_tracing_scratch_memory_data_t p{};
  p.size = sizeof(p);
  p.agent_id.handle = 7;
  p.queue_id.handle = 3;
  p.flags = ROCPROFILER_SCRATCH_ALLOC_FLAG_USE_ONCE;
  p.args_kind = static_cast<decltype(p.args_kind)>(2);  // ALLOC_END
  p.args.alloc_end.dispatch_id = 11;
  p.args.alloc_end.size = 16384;
  p.args.alloc_end.num_slots = 4;
  Sink s;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,
                       ROCPROFILER_SCRATCH_MEMORY_ALLOC,
                       ROCPROFILER_CALLBACK_PHASE_EXIT, &p),
                &Collect, 1, &s));
  std::vector<std::string> names, values;
  for (const Seen& a : s.args) {
    names.push_back(a.name);
    values.push_back(a.value);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"agent_id", "queue_id", "flags",
                                             "args_kind", "dispatch_id", "size",
                                             "num_slots"}));
  EXPECT_EQ(values,
            (std::vector<std::string>{"7", "3", "1", "2", "11", "16384", "4"}));
  // A free carries no event arguments.
  p.args_kind = static_cast<decltype(p.args_kind)>(3);  // FREE_START
  Sink free_args;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,
                       ROCPROFILER_SCRATCH_MEMORY_FREE,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &free_args));
  EXPECT_EQ(free_args.args.size(), 4u);
}

TEST(Args, InvalidRecordsAreRejected) {
  AnyPayload p;
  std::memset(p.bytes, 0, sizeof(p.bytes));
  Sink s;
  // NONE has no operations (rocprofiler-sdk 1.0.0's answer).
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_NONE, 0,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_LAST, 0,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_HIP_STREAM,
                       ROCPROFILER_HIP_STREAM_CREATE,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                       ROCPROFILER_KERNEL_DISPATCH_NONE,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                       ROCPROFILER_HSA_CORE_API_ID_LAST,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                &Collect, 1, &s));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, 0,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, nullptr),
                &Collect, 1, &s));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_iterate_callback_tracing_kind_operation_args(
                Record(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, 0,
                       ROCPROFILER_CALLBACK_PHASE_ENTER, &p),
                nullptr, 1, &s));
  EXPECT_TRUE(s.args.empty());
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc > 1) g_expectations_path = argv[1];
  return RUN_ALL_TESTS();
}
