// rocprofiler-sdk/cxx/perfetto.hpp against a stand-in for the Perfetto SDK
// (perfetto_stub/perfetto.h): the categories it registers with Perfetto, the
// category of every tracing kind and the typed annotations it writes, as
// rocprofiler-sdk 1.0.0's header gives them. The real Perfetto SDK is not
// available here (Debian packages none).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <ostream>
#include <rocprofiler-sdk/cxx/perfetto.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace sdk = ::rocprofiler::sdk;

TEST(PerfettoHeader, RegistersTheCategoriesIn100sOrder) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"hsa_api", "HSA API function"},
      {"hip_api", "HIP API function"},
      {"marker_api", "Marker API region"},
      {"rccl_api", "RCCL API function"},
      {"openmp", "OpenMP"},
      {"kernel_dispatch", "GPU kernel dispatch"},
      {"memory_copy", "Async memory copy"},
      {"counter_collection", "Counter Collection"},
      {"memory_allocation", "Memory Allocation"},
      {"rocdecode_api", "rocDecode API function"},
      {"rocjpeg_api", "rocJPEG API function"},
      {"none", "Unknown category"}};
  std::vector<std::pair<std::string, std::string>> got;
  for (const perfetto::Category& c : perfetto::stub::kCategories) {
    got.emplace_back(c.name(), c.description());
  }
  EXPECT_EQ(got, expected);
  // Named, though not registered (as in 1.0.0).
  EXPECT_STREQ(sdk::perfetto_category<sdk::category::kfd_events>::name,
               "kfd_events");
  EXPECT_STREQ(sdk::perfetto_category<sdk::category::kfd_events>::description,
               "KFD events collection");
}

// `expected` names the category of every kind below `last`, and only
// those: no kind lacks one, and `last` itself has none.
template <typename KindT>
void ExpectCategories(const std::map<int, std::string>& expected, KindT last) {
  ASSERT_EQ(expected.size(), size_t(last));
  for (const auto& [kind, name] : expected) {
    const char* got = sdk::get_perfetto_category(static_cast<KindT>(kind));
    ASSERT_NE(got, nullptr) << "kind " << kind;
    EXPECT_EQ(got, name) << "kind " << kind;
    EXPECT_EQ(sdk::get_perfetto_category(static_cast<KindT>(kind),
                                         std::make_index_sequence<1>{}),
              got);
  }
  EXPECT_EQ(sdk::get_perfetto_category(last), nullptr);
}

TEST(PerfettoHeader, EveryBufferKindHasItsCategory) {
  const std::map<int, std::string> expected = {
      {ROCPROFILER_BUFFER_TRACING_NONE, "none"},
      {ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, "hsa_api"},
      {ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API, "hsa_api"},
      {ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API, "hsa_api"},
      {ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API, "hsa_api"},
      {ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, "hip_api"},
      {ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API, "hip_api"},
      {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API, "marker_api"},
      {ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API, "marker_api"},
      {ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API, "marker_api"},
      {ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, "memory_copy"},
      {ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, "kernel_dispatch"},
      {ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY, "memory_allocation"},
      {ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, "none"},
      {ROCPROFILER_BUFFER_TRACING_RCCL_API, "rccl_api"},
      {ROCPROFILER_BUFFER_TRACING_OMPT, "openmp"},
      {ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, "memory_allocation"},
      {ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION, "none"},
      {ROCPROFILER_BUFFER_TRACING_ROCDECODE_API, "rocdecode_api"},
      {ROCPROFILER_BUFFER_TRACING_ROCJPEG_API, "rocjpeg_api"},
      {ROCPROFILER_BUFFER_TRACING_HIP_STREAM, "hip_api"},
      {ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT, "hip_api"},
      {ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT, "hip_api"},
      {ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT, "rocdecode_api"},
      {ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_KFD_QUEUE, "kfd_events"},
      {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, "marker_api"}};
  ExpectCategories<rocprofiler_buffer_tracing_kind_t>(
      expected, ROCPROFILER_BUFFER_TRACING_LAST);
  EXPECT_EQ(sdk::get_perfetto_category(
                static_cast<rocprofiler_buffer_tracing_kind_t>(-1)),
            nullptr);
  static_assert(
      std::string_view(sdk::rocprofiler_tracing_perfetto_category<
                       rocprofiler_buffer_tracing_kind_t,
                       ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH>::name) ==
          "kernel_dispatch",
      "known at compile time");
}

TEST(PerfettoHeader, EveryCallbackKindHasItsCategory) {
  const std::map<int, std::string> expected = {
      {ROCPROFILER_CALLBACK_TRACING_NONE, "none"},
      {ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, "hsa_api"},
      {ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API, "hsa_api"},
      {ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API, "hsa_api"},
      {ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API, "hsa_api"},
      {ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, "hip_api"},
      {ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API, "hip_api"},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, "marker_api"},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API, "marker_api"},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API, "marker_api"},
      {ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, "none"},
      {ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY, "memory_allocation"},
      {ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, "kernel_dispatch"},
      {ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY, "memory_copy"},
      {ROCPROFILER_CALLBACK_TRACING_RCCL_API, "rccl_api"},
      {ROCPROFILER_CALLBACK_TRACING_OMPT, "openmp"},
      {ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, "memory_allocation"},
      {ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION, "none"},
      {ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API, "rocdecode_api"},
      {ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API, "rocjpeg_api"},
      {ROCPROFILER_CALLBACK_TRACING_HIP_STREAM, "hip_api"},
      {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API, "marker_api"}};
  ExpectCategories<rocprofiler_callback_tracing_kind_t>(
      expected, ROCPROFILER_CALLBACK_TRACING_LAST);
}

struct Printable {
  int x;
};
std::ostream& operator<<(std::ostream& os, const Printable& p) {
  return os << "printable(" << p.x << ")";
}

TEST(PerfettoHeader, AnnotationsAreTypedByTheValue) {
  sdk::perfetto_event_context_t ctx;
  const char* null_text = nullptr;
  int object = 0;
  const std::string text = "a string";
  const char buffer[] = "view-and-more";
  sdk::add_perfetto_annotation(ctx, "literal", "text");
  sdk::add_perfetto_annotation(ctx, std::string("string"), text);
  sdk::add_perfetto_annotation(ctx, std::string_view("view"),
                               std::string_view(buffer, 4));
  sdk::add_perfetto_annotation(ctx, "null", null_text);
  sdk::add_perfetto_annotation(ctx, "bool", true);
  sdk::add_perfetto_annotation(ctx, "enum", ROCPROFILER_BUFFER_TRACING_OMPT);
  sdk::add_perfetto_annotation(ctx, "int", -5);
  sdk::add_perfetto_annotation(ctx, "uint", uint64_t{1} << 63);
  sdk::add_perfetto_annotation(ctx, "double", 2.5f);
  sdk::add_perfetto_annotation(ctx, "pointer", &object);
  sdk::add_perfetto_annotation(ctx, "printable", Printable{7});

  const auto& a = ctx.event()->annotations;
  ASSERT_EQ(a.size(), 11u);
  for (const auto& one : a) EXPECT_EQ(one.sets, 1) << one.name;
  EXPECT_EQ(a[0].name, "literal");
  EXPECT_EQ(a[0].type, "string");
  EXPECT_EQ(a[0].string_value, "text");
  EXPECT_EQ(a[1].name, "string");
  EXPECT_EQ(a[1].string_value, "a string");
  EXPECT_EQ(a[2].name, "view");
  EXPECT_EQ(a[2].string_value, "view");  // the view's bytes only
  EXPECT_EQ(a[3].type, "string");
  EXPECT_EQ(a[3].string_value, "");
  EXPECT_EQ(a[4].type, "bool");
  EXPECT_TRUE(a[4].bool_value);
  EXPECT_EQ(a[5].type, "int");
  EXPECT_EQ(a[5].int_value, ROCPROFILER_BUFFER_TRACING_OMPT);
  EXPECT_EQ(a[6].type, "int");
  EXPECT_EQ(a[6].int_value, -5);
  EXPECT_EQ(a[7].type, "uint");
  EXPECT_EQ(a[7].uint_value, uint64_t{1} << 63);
  EXPECT_EQ(a[8].type, "double");
  EXPECT_EQ(a[8].double_value, 2.5);
  EXPECT_EQ(a[9].type, "pointer");
  EXPECT_EQ(a[9].pointer_value, reinterpret_cast<uint64_t>(&object));
  EXPECT_EQ(a[10].type, "string");
  EXPECT_EQ(a[10].string_value, "printable(7)");
}

}  // namespace
