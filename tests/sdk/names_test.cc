// Kinds and operations: names, counts and round trips, through the public
// API only (plus the generated roctracer name tables as the reference).
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "rocprofiler-sdk/rocprofiler.h"

namespace {

std::vector<rocprofiler_callback_tracing_kind_t> Kinds() {
  std::vector<rocprofiler_callback_tracing_kind_t> out;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kinds(
                [](rocprofiler_callback_tracing_kind_t k, void* d) {
                  static_cast<decltype(out)*>(d)->push_back(k);
                  return 0;
                },
                &out));
  return out;
}

std::vector<int32_t> Ops(rocprofiler_callback_tracing_kind_t kind) {
  std::vector<int32_t> out;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operations(
                kind,
                [](rocprofiler_callback_tracing_kind_t, int32_t op, void* d) {
                  static_cast<std::vector<int32_t>*>(d)->push_back(op);
                  return 0;
                },
                &out));
  return out;
}

std::string OpName(rocprofiler_callback_tracing_kind_t kind, int32_t op) {
  const char* name = nullptr;
  uint64_t len = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_callback_tracing_kind_operation_name(kind, op,
                                                                   &name, &len))
      << kind << " " << op;
  if (name == nullptr) return "";
  EXPECT_EQ(std::string(name).size(), len);
  return name;
}

TEST(Kinds, EveryKindOnceInEnumOrderWithItsEnumName) {
  const auto kinds = Kinds();
  // NONE included, as rocprofiler-sdk 1.0.0 iterates them.
  ASSERT_EQ(kinds.size(),
            static_cast<size_t>(ROCPROFILER_CALLBACK_TRACING_LAST));
  std::set<std::string> names;
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(kinds[i], static_cast<int>(i));
    const char* name = nullptr;
    uint64_t len = 0;
    ASSERT_EQ(
        ROCPROFILER_STATUS_SUCCESS,
        rocprofiler_query_callback_tracing_kind_name(kinds[i], &name, &len));
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(std::string(name).size(), len);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), kinds.size());
  const char* name = nullptr;
  rocprofiler_query_callback_tracing_kind_name(
      ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, &name, nullptr);
  EXPECT_STREQ(name, "HSA_CORE_API");
  rocprofiler_query_callback_tracing_kind_name(
      ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, &name, nullptr);
  EXPECT_STREQ(name, "MARKER_CORE_API");
  rocprofiler_query_callback_tracing_kind_name(
      ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, &name, nullptr);
  EXPECT_STREQ(name, "KERNEL_DISPATCH");
}

TEST(Kinds, UnknownKindsAreNotFound) {
  for (int k :
       {-1, static_cast<int>(ROCPROFILER_CALLBACK_TRACING_LAST), 1000}) {
    const auto kind = static_cast<rocprofiler_callback_tracing_kind_t>(k);
    EXPECT_EQ(
        ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
        rocprofiler_query_callback_tracing_kind_name(kind, nullptr, nullptr));
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
              rocprofiler_query_callback_tracing_kind_operation_name(
                  kind, 0, nullptr, nullptr));
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
              rocprofiler_iterate_callback_tracing_kind_operations(
                  kind,
                  [](rocprofiler_callback_tracing_kind_t, int32_t, void*) {
                    return 0;
                  },
                  nullptr));
  }
}

// As rocprofiler-sdk 1.0.0: NONE is a kind with a name and no operations.
// rocJPEG's and RCCL's operations are named as their functions (the kinds
// are not traced).
TEST(Kinds, RocjpegAndRcclOperationsAreTheirFunctions) {
  const char* name = nullptr;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_callback_tracing_kind_operation_name(
                ROCPROFILER_CALLBACK_TRACING_RCCL_API,
                ROCPROFILER_RCCL_API_ID_ncclCommDeregister, &name, nullptr));
  EXPECT_STREQ(name, "ncclCommDeregister");
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_RCCL_API,
                ROCPROFILER_RCCL_API_ID_ncclAllReduce, &name, nullptr));
  EXPECT_STREQ(name, "ncclAllReduce");
  ASSERT_EQ(
      ROCPROFILER_STATUS_SUCCESS,
      rocprofiler_query_callback_tracing_kind_operation_name(
          ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API,
          ROCPROFILER_ROCJPEG_API_ID_rocJpegDecodeBatched, &name, nullptr));
  EXPECT_STREQ(name, "rocJpegDecodeBatched");
  ASSERT_EQ(
      ROCPROFILER_STATUS_SUCCESS,
      rocprofiler_query_buffer_tracing_kind_operation_name(
          ROCPROFILER_BUFFER_TRACING_ROCJPEG_API,
          ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamCreate, &name, nullptr));
  EXPECT_STREQ(name, "rocJpegStreamCreate");
}

// OMPT's operations are named as rocprofiler-sdk 1.0.0 names them (the
// callback with "omp_" in front), rocDecode's as its functions; neither kind
// is traced.
TEST(Kinds, OmptAndRocdecodeOperationsAreNamed) {
  const char* name = nullptr;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_callback_tracing_kind_operation_name(
                ROCPROFILER_CALLBACK_TRACING_OMPT,
                ROCPROFILER_OMPT_ID_target_data_op_emi, &name, nullptr));
  EXPECT_STREQ(name, "omp_target_data_op_emi");
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_OMPT,
                ROCPROFILER_OMPT_ID_callback_functions, &name, nullptr));
  EXPECT_STREQ(name, "omp_callback_functions");
  ASSERT_EQ(
      ROCPROFILER_STATUS_SUCCESS,
      rocprofiler_query_callback_tracing_kind_operation_name(
          ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API,
          ROCPROFILER_ROCDECODE_API_ID_rocDecGetVideoFrame, &name, nullptr));
  EXPECT_STREQ(name, "rocDecGetVideoFrame");
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT,
                ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyBitstreamReader,
                &name, nullptr));
  EXPECT_STREQ(name, "rocDecDestroyBitstreamReader");
}

TEST(Kinds, NoneIsNamedWithoutOperations) {
  const char* name = nullptr;
  uint64_t len = 0;
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_query_callback_tracing_kind_name(
                ROCPROFILER_CALLBACK_TRACING_NONE, &name, &len));
  EXPECT_STREQ(name, "NONE");
  EXPECT_EQ(len, 4u);
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_query_callback_tracing_kind_operation_name(
                ROCPROFILER_CALLBACK_TRACING_NONE, 0, &name, nullptr));
  int calls = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_iterate_callback_tracing_kind_operations(
                ROCPROFILER_CALLBACK_TRACING_NONE,
                [](rocprofiler_callback_tracing_kind_t, int32_t, void* d) {
                  ++*static_cast<int*>(d);
                  return 0;
                },
                &calls));
  EXPECT_EQ(calls, 0);
}

TEST(Kinds, IterationStopsWhenTheCallbackReturnsNonZero) {
  int calls = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kinds(
                [](rocprofiler_callback_tracing_kind_t, void* d) {
                  return ++*static_cast<int*>(d) == 3 ? 1 : 0;
                },
                &calls));
  EXPECT_EQ(calls, 3);
  calls = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_iterate_callback_tracing_kind_operations(
                ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                [](rocprofiler_callback_tracing_kind_t, int32_t, void* d) {
                  return ++*static_cast<int*>(d) == 5 ? 7 : 0;
                },
                &calls));
  EXPECT_EQ(calls, 5);
}

// The count each kind's operation enum implies: API kinds number from 0
// (NONE = -1), the others from 1 (NONE = 0).
struct Expected {
  rocprofiler_callback_tracing_kind_t kind;
  int32_t first;
  int32_t last;
};

TEST(Operations, CountsEqualTheEnumsLastAndNamesRoundTrip) {
  const Expected expected[] = {
      {ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, 0,
       ROCPROFILER_HSA_CORE_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API, 0,
       ROCPROFILER_HSA_AMD_EXT_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API, 0,
       ROCPROFILER_HSA_IMAGE_EXT_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API, 0,
       ROCPROFILER_HSA_FINALIZE_EXT_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, 0,
       ROCPROFILER_HIP_RUNTIME_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API, 0,
       ROCPROFILER_HIP_COMPILER_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, 0,
       ROCPROFILER_MARKER_CORE_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API, 0,
       ROCPROFILER_MARKER_CONTROL_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API, 0,
       ROCPROFILER_MARKER_NAME_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, 1,
       ROCPROFILER_CODE_OBJECT_LAST},
      {ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY, 1,
       ROCPROFILER_SCRATCH_MEMORY_LAST},
      {ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, 1,
       ROCPROFILER_KERNEL_DISPATCH_LAST},
      {ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY, 1,
       ROCPROFILER_MEMORY_COPY_LAST},
      {ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, 1,
       ROCPROFILER_MEMORY_ALLOCATION_LAST},
      {ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION, 1,
       ROCPROFILER_RUNTIME_INITIALIZATION_LAST},
      {ROCPROFILER_CALLBACK_TRACING_HIP_STREAM, 1, ROCPROFILER_HIP_STREAM_LAST},
      {ROCPROFILER_CALLBACK_TRACING_RCCL_API, 0, ROCPROFILER_RCCL_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API, 0,
       ROCPROFILER_ROCJPEG_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_OMPT, 0, ROCPROFILER_OMPT_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API, 0,
       ROCPROFILER_ROCDECODE_API_ID_LAST},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API, 0,
       ROCPROFILER_MARKER_CORE_RANGE_API_ID_LAST},
  };
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.kind);
    const auto ops = Ops(e.kind);
    ASSERT_EQ(ops.size(), static_cast<size_t>(e.last - e.first));
    std::map<std::string, int32_t> by_name;
    for (size_t i = 0; i < ops.size(); ++i) {
      EXPECT_EQ(ops[i], e.first + static_cast<int32_t>(i));
      const std::string name = OpName(e.kind, ops[i]);
      EXPECT_FALSE(name.empty());
      EXPECT_TRUE(by_name.emplace(name, ops[i]).second) << "duplicate " << name;
    }
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
              rocprofiler_query_callback_tracing_kind_operation_name(
                  e.kind, e.last, nullptr, nullptr));
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
              rocprofiler_query_callback_tracing_kind_operation_name(
                  e.kind, e.first - 1, nullptr, nullptr));
  }
}

// Every HSA API of the build is exactly one operation of one HSA kind, and
// the kinds follow the dispatch tables (core, AMD ext, image, finalizer).
TEST(Operations, HsaKindsPartitionTheHsaApisInTableOrder) {
  const rocprofiler_callback_tracing_kind_t kinds[] = {
      ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
      ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API,
      ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API,
      ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API};
  std::set<uint32_t> seen;
  for (auto kind : kinds) {
    for (int32_t op : Ops(kind)) {
      uint32_t id = 0;
      const std::string name = OpName(kind, op);
      ASSERT_TRUE(roctracer::hsa_api::IdByName(name.c_str(), &id)) << name;
      EXPECT_TRUE(seen.insert(id).second) << name;
    }
  }
  EXPECT_EQ(seen.size(), roctracer::hsa_api::kLiveCount);
  EXPECT_EQ(OpName(kinds[0], ROCPROFILER_HSA_CORE_API_ID_hsa_init), "hsa_init");
  EXPECT_EQ(OpName(kinds[0], ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info),
            "hsa_system_get_info");
  EXPECT_EQ(OpName(kinds[1],
                   ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_memory_pool_allocate),
            "hsa_amd_memory_pool_allocate");
  EXPECT_EQ(
      OpName(kinds[2], ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_create),
      "hsa_ext_image_create");
  EXPECT_EQ(
      OpName(kinds[3],
             ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_finalize),
      "hsa_ext_program_finalize");
  // Operations number from 0 within each table.
  EXPECT_EQ(
      OpName(kinds[1], 0),
      std::string(roctracer::hsa_api::Name(ROCPROFILER_HSA_CORE_API_ID_LAST)));
}

#define NAMES_TEST_STR(x) #x
#define NAMES_TEST_XSTR(x) NAMES_TEST_STR(x)

// HIP 6 renames two APIs by macro (`#define hipChooseDevice
// hipChooseDeviceR0600`); rocprofiler-sdk names their operations by the
// table slot, the old name, while our HIP domain has the new one. The
// macros' expansions (the name itself before HIP 6) give the API.
std::string HipApiOf(const std::string& op_name) {
  static const std::map<std::string, std::string> renamed = {
      {"hipChooseDevice", NAMES_TEST_XSTR(hipChooseDevice)},
      {"hipGetDeviceProperties", NAMES_TEST_XSTR(hipGetDeviceProperties)},
  };
  const auto it = renamed.find(op_name);
  return it == renamed.end() ? op_name : it->second;
}

// Operations of HIP's tables (HIP >= 6) that may have no HIP API of ours,
// as codegen/exclusions.txt lists them: the compiler's entry points
// (__hipRegisterFatBinary, ...: not in the API headers), the OpenGL interop
// functions (they need GL's types to declare), and hipExtHostAlloc, a slot no
// public header declares and HIP does not number.
bool TableOnly(const std::string& op_name) {
  return op_name.rfind("__hip", 0) == 0 || op_name.rfind("hipGL", 0) == 0 ||
         op_name.rfind("hipGraphicsGL", 0) == 0 || op_name == "hipExtHostAlloc";
}

TEST(Operations, HipKindsSplitCompilerEntryPointsFromTheRuntime) {
  std::set<uint32_t> seen;
  // The runtime kind ends with rocprofiler-sdk 1.0.0's operations the
  // installed HIP lacks (named, never firing): from the first of them on,
  // no operation is an API of ours.
  std::vector<std::string> tail;
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                    ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API}) {
    for (int32_t op : Ops(kind)) {
      const std::string name = OpName(kind, op);
      EXPECT_EQ(name.rfind("__hip", 0) == 0,
                kind == ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API)
          << name;
      uint32_t id = 0;
      const bool api =
          roctracer::hip_api::IdByName(HipApiOf(name).c_str(), &id);
      if (kind == ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API &&
          (!tail.empty() || (!api && !TableOnly(name)))) {
        EXPECT_FALSE(api) << name << " after " << tail[0];
        tail.push_back(name);
        continue;
      }
      if (!api && TableOnly(name)) continue;
      ASSERT_TRUE(api) << name;
      EXPECT_TRUE(seen.insert(id).second) << name;
    }
  }
  uint32_t unused = 0;
  if (!roctracer::hip_api::IdByName("hipModuleLaunchCooperativeKernel",
                                    &unused)) {
    EXPECT_NE(
        std::find(tail.begin(), tail.end(), "hipModuleLaunchCooperativeKernel"),
        tail.end());
    EXPECT_EQ(
        OpName(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
               ROCPROFILER_HIP_RUNTIME_API_ID_hipModuleLaunchCooperativeKernel),
        "hipModuleLaunchCooperativeKernel");
  }
  // Every HIP API of ours is an operation, but one: HIP's tables (HIP >= 6)
  // have no slot for __hipGetPCH, so rocprofiler-sdk cannot number it.
  std::vector<std::string> unnumbered;
  for (uint32_t id = 0; id < roctracer::hip_api::kCount; ++id) {
    const char* name = roctracer::hip_api::Name(id);
    if (name != nullptr && seen.count(id) == 0) unnumbered.push_back(name);
  }
  EXPECT_TRUE(unnumbered.empty() ||
              unnumbered == std::vector<std::string>{"__hipGetPCH"})
      << unnumbered.size() << " unnumbered, first " << unnumbered[0];
  EXPECT_EQ(OpName(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                   ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString),
            "hipGetErrorString");
  EXPECT_EQ(OpName(ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API,
                   ROCPROFILER_HIP_COMPILER_API_ID___hipPushCallConfiguration),
            "__hipPushCallConfiguration");
}

TEST(Operations, MarkerCoreNamesAreTheRocTxFunctions) {
  const auto k = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API;
  EXPECT_EQ(OpName(k, ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA), "roctxMarkA");
  EXPECT_EQ(OpName(k, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA),
            "roctxRangePushA");
  EXPECT_EQ(OpName(k, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop),
            "roctxRangePop");
  EXPECT_EQ(OpName(k, ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA),
            "roctxRangeStartA");
  EXPECT_EQ(OpName(k, ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop),
            "roctxRangeStop");
}

TEST(Status, EveryStatusHasItsEnumNameAndADistinctString) {
  std::set<std::string> texts;
  for (int s = 0; s < ROCPROFILER_STATUS_LAST; ++s) {
    const auto st = static_cast<rocprofiler_status_t>(s);
    const char* name = rocprofiler_get_status_name(st);
    const char* text = rocprofiler_get_status_string(st);
    ASSERT_NE(name, nullptr);
    ASSERT_NE(text, nullptr);
    EXPECT_EQ(std::string(name).rfind("ROCPROFILER_STATUS_", 0), 0u);
    EXPECT_TRUE(texts.insert(text).second) << text;
  }
  EXPECT_STREQ(rocprofiler_get_status_name(ROCPROFILER_STATUS_SUCCESS),
               "ROCPROFILER_STATUS_SUCCESS");
  EXPECT_STREQ(rocprofiler_get_status_name(
                   ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED),
               "ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED");
  EXPECT_STREQ(
      rocprofiler_get_status_name(ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED),
      "ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED");
  EXPECT_EQ(rocprofiler_get_status_name(ROCPROFILER_STATUS_LAST), nullptr);
  EXPECT_EQ(
      rocprofiler_get_status_string(static_cast<rocprofiler_status_t>(-1)),
      nullptr);
}

TEST(Basics, VersionTimestampAndThreadId) {
  uint32_t major = 9, minor = 9, patch = 9;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_get_version(&major, &minor, &patch));
  EXPECT_EQ(major * 10000 + minor * 100 + patch,
            static_cast<uint32_t>(ROCPROFILER_VERSION));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_get_version(nullptr, nullptr, nullptr));

  timespec before{}, after{};
  clock_gettime(CLOCK_BOOTTIME, &before);
  rocprofiler_timestamp_t ts = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_get_timestamp(&ts));
  clock_gettime(CLOCK_BOOTTIME, &after);
  const uint64_t lo = before.tv_sec * 1000000000ull + before.tv_nsec;
  const uint64_t hi = after.tv_sec * 1000000000ull + after.tv_nsec;
  // The tracer's clock is CLOCK_BOOTTIME read through the TSC: within tens of
  // ns of the kernel's (tests/core/clock_test.cc); 1 us of slack.
  EXPECT_LE(lo, ts + 1000);
  EXPECT_LE(ts, hi + 1000);
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_get_timestamp(nullptr));

  rocprofiler_thread_id_t tid = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_get_thread_id(&tid));
  EXPECT_EQ(tid, static_cast<uint64_t>(syscall(SYS_gettid)));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_get_thread_id(nullptr));
}

}  // namespace
