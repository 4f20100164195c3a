// The header-only C++ helpers under rocprofiler-sdk/cxx/: kind and operation
// names as the library's queries give them, handle comparison, and handles
// as keys of unordered containers, enumerator labels, hexadecimal text.
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/cxx/details/join.hpp"
#include "rocprofiler-sdk/cxx/details/mpl.hpp"
#include "rocprofiler-sdk/cxx/details/name_info.hpp"
#include "rocprofiler-sdk/cxx/details/tokenize.hpp"
#include "rocprofiler-sdk/cxx/enum_string.hpp"
#include "rocprofiler-sdk/cxx/hash.hpp"
#include "rocprofiler-sdk/cxx/name_info.hpp"
#include "rocprofiler-sdk/cxx/operators.hpp"
#include "rocprofiler-sdk/cxx/utility.hpp"
#include "rocprofiler-sdk/rocprofiler.h"

namespace {

using rocprofiler::sdk::get_enum_label;

// A label is the enumerator's spelling, usable at compile time.
static_assert(get_enum_label(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND) ==
              "ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND");

TEST(CxxHelpers, EnumLabelsAreTheEnumeratorsSpelling) {
  EXPECT_EQ(get_enum_label(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API),
            "ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API");
  EXPECT_EQ(get_enum_label(ROCPROFILER_BUFFER_TRACING_KFD_QUEUE),
            "ROCPROFILER_BUFFER_TRACING_KFD_QUEUE");
  // Shared values: the enumerator declared first.
  EXPECT_EQ(get_enum_label(ROCPROFILER_CALLBACK_PHASE_UNLOAD),
            "ROCPROFILER_CALLBACK_PHASE_EXIT");
  // Operations of every kind, the per-release HSA/HIP numbering included.
  EXPECT_EQ(get_enum_label(ROCPROFILER_HSA_CORE_API_ID_hsa_queue_create),
            "ROCPROFILER_HSA_CORE_API_ID_hsa_queue_create");
  EXPECT_EQ(get_enum_label(ROCPROFILER_HIP_RUNTIME_API_ID_hipMemcpy),
            "ROCPROFILER_HIP_RUNTIME_API_ID_hipMemcpy");
  EXPECT_EQ(get_enum_label(ROCPROFILER_OMPT_ID_callback_functions),
            "ROCPROFILER_OMPT_ID_callback_functions");
  EXPECT_EQ(get_enum_label(ROCPROFILER_ROCDECODE_API_ID_rocDecDecodeFrame),
            "ROCPROFILER_ROCDECODE_API_ID_rocDecDecodeFrame");
  EXPECT_EQ(get_enum_label(ROCPROFILER_HSA_TABLE_ID_AmdExt),
            "ROCPROFILER_HSA_TABLE_ID_AmdExt");
  // Every HSA core operation has its own label.
  std::set<std::string_view> seen;
  for (int op = 0; op < ROCPROFILER_HSA_CORE_API_ID_LAST; ++op) {
    const auto label =
        get_enum_label(static_cast<rocprofiler_hsa_core_api_id_t>(op));
    EXPECT_EQ(label.rfind("ROCPROFILER_HSA_CORE_API_ID_hsa_", 0), 0u) << op;
    seen.insert(label);
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(ROCPROFILER_HSA_CORE_API_ID_LAST));
}

TEST(CxxHelpers, ValuesWithoutALabelAreUnsupported) {
  EXPECT_EQ(get_enum_label(ROCPROFILER_STATUS_LAST),
            "unsupported_rocprofiler_status_t");
  EXPECT_EQ(get_enum_label(ROCPROFILER_HSA_CORE_API_ID_NONE),
            "unsupported_rocprofiler_hsa_core_api_id_t");
  EXPECT_EQ(get_enum_label(ROCPROFILER_HIP_RUNTIME_API_ID_LAST),
            "unsupported_rocprofiler_hip_runtime_api_id_t");
  // Flag enums: one bit each; LAST is an alias of the last flag.
  EXPECT_EQ(get_enum_label(ROCPROFILER_ROCJPEG_TABLE),
            "ROCPROFILER_ROCJPEG_TABLE");
  EXPECT_EQ(get_enum_label(ROCPROFILER_HIP_LIBRARY), "ROCPROFILER_HIP_LIBRARY");
  EXPECT_EQ(get_enum_label(static_cast<rocprofiler_runtime_library_t>(
                ROCPROFILER_HSA_LIBRARY | ROCPROFILER_HIP_LIBRARY)),
            "unsupported_rocprofiler_runtime_library_t");
}

TEST(CxxHelpers, TokenizeSplitsAtAnyDelimiterCharacter) {
  using rocprofiler::sdk::parse::tokenize;
  EXPECT_EQ(tokenize("a,b;;c  d"),
            (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(tokenize(",,,"), std::vector<std::string>{});
  // Into a set, through a predicate.
  const auto upper = tokenize<std::set<std::string>>(
      "x:y:x", ":", [](std::string&& s) { return s + s; });
  EXPECT_EQ(upper, (std::set<std::string>{"xx", "yy"}));
}

TEST(CxxHelpers, TokenizeSplitsAtStringDelimitersKeepingEmptyPieces) {
  using rocprofiler::sdk::parse::tokenize;
  const std::vector<std::string_view> delimiters = {"::", "->"};
  EXPECT_EQ(tokenize("a::b->c::::d", delimiters),
            (std::vector<std::string>{"a", "b", "c", "", "d"}));
  EXPECT_EQ(tokenize("abc", delimiters), std::vector<std::string>{"abc"});
}

TEST(CxxHelpers, FromStringStripAndTransform) {
  namespace parse = rocprofiler::sdk::parse;
  EXPECT_EQ(parse::from_string<int>("42 rest"), 42);
  EXPECT_EQ(parse::from_string<double>(std::string{"0.5"}), 0.5);
  EXPECT_EQ(parse::from_string<int>("x"), 0);
  EXPECT_EQ(parse::strip(std::string{"  [a b]\n"}, " \n[]"), "a b");
  EXPECT_EQ(parse::strip(std::string{"   "}, " "), "   ");
  // Each span from "f(" up to (not including) the next ")" is rewritten.
  EXPECT_EQ(parse::str_transform(
                "f(x) + f(y)", "f(", ")",
                [](const std::string& span) { return "g" + span.substr(1); }),
            "g(x) + g(y)");
}

TEST(CxxHelpers, MplTraits) {
  namespace mpl = rocprofiler::sdk::mpl;
  static_assert(mpl::is_string_type<const std::string&>::value);
  static_assert(mpl::is_string_type<const char*>::value);
  static_assert(!mpl::is_string_type<int>::value);
  static_assert(mpl::can_stringify<int>::value);
  static_assert(!mpl::can_stringify<std::vector<int>>::value);
  static_assert(mpl::is_iterable<std::vector<int>>::value);
  static_assert(mpl::has_value_type<std::vector<int>>(0));
  static_assert(!mpl::has_mapped_type<std::vector<int>>(0));
  static_assert(mpl::has_mapped_type<std::map<int, int>>(0));
  static_assert(mpl::string_support<std::string_view>::value);
  EXPECT_TRUE(mpl::is_empty(std::string{}));
  EXPECT_TRUE(mpl::is_empty(""));
  EXPECT_FALSE(mpl::is_empty(3));
  std::vector<int> v;
  std::set<int> s;
  EXPECT_TRUE(mpl::reserve(v, 8));
  EXPECT_FALSE(mpl::reserve(s, 8));
  mpl::emplace(v, 1);
  mpl::emplace(s, 1);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(s.count(1), 1u);
}

// join's output for what tools pass it (the same strings rocprofiler-sdk
// 1.0.0's join.hpp gives for these calls).
TEST(CxxHelpers, JoinWritesValuesContainersAndMaps) {
  using rocprofiler::sdk::join::join;
  using rocprofiler::sdk::join::QuoteStrings;
  EXPECT_EQ(join(", ", 1, "two", 3.5, true), "1, two, 3.5, true");
  EXPECT_EQ(join<QuoteStrings>(", ", "a", std::string{"b"}, 2),
            "\"a\", \"b\", 2");
  EXPECT_EQ(join(", ", std::vector<int>{1, 2, 3}), "[1, 2, 3]");
  EXPECT_EQ(join(", ", std::map<std::string, int>{{"a", 1}, {"b", 2}}),
            "[{a, 1}, {b, 2}]");
  EXPECT_EQ(join(", ", std::vector<std::vector<int>>{{1}, {2, 3}}),
            "[[1], [2, 3]]");
  EXPECT_EQ(
      join<QuoteStrings>(", ", std::map<std::string, std::string>{{"k", "v"}}),
      "[{\"k\", \"v\"}]");
  EXPECT_EQ(join(", ", 'c', false), "c, false");
}

TEST(CxxHelpers, JoinDelimitersPrefixesAndEmptyValues) {
  namespace j = rocprofiler::sdk::join;
  EXPECT_EQ(j::join(':', "x", "y"), "x:y");
  EXPECT_EQ(j::join(std::string{"--"}, 1, 2), "1--2");
  EXPECT_EQ(j::join(std::string_view{"/"}, "usr", "lib"), "usr/lib");
  EXPECT_EQ(j::join("", "a", "b"), "ab");
  EXPECT_EQ(j::join({" ", "<", ">"}, 1, 2), "<1 2>");
  // The array form never quotes (as in 1.0.0).
  EXPECT_EQ(j::join<j::QuoteStrings>({" ", "<", ">"}, "q", 2), "<q 2>");
  // An empty value adds no delimiter; nothing written gives "".
  EXPECT_EQ(j::join(", ", "", "b"), "b");
  EXPECT_EQ(j::join(", "), "");
  EXPECT_EQ(j::join(", ", std::vector<int>{}), "");
  EXPECT_EQ(j::join(", ", std::vector<int>{}, 5), "5");
  EXPECT_EQ(j::join(j::config{j::generic_config{"; ", "(", ")"},
                              j::array_config{"|", "<", ">"}},
                    std::vector<int>{1, 2}, 3),
            "(<1|2>; 3)");
  // A config of the items alone leaves the whole without a delimiter.
  EXPECT_EQ(j::join(j::array_config{"|", "<", ">"}, std::vector<int>{1, 2}, 3),
            "<1|2>3");
  EXPECT_EQ(j::quoted("abc"), "\"abc\"");
  EXPECT_EQ(j::quoted(std::string{}), "");
}

TEST(CxxHelpers, AsHexPadsToTheWidthAsked) {
  using rocprofiler::sdk::utility::as_hex;
  EXPECT_EQ(as_hex(255), "0xff");
  EXPECT_EQ(as_hex(255, 4), "0x00ff");
  EXPECT_EQ(as_hex(uint64_t{0}), "0x0");
  int x = 0;
  std::ostringstream expected;
  expected << std::hex << reinterpret_cast<uintptr_t>(&x);
  EXPECT_EQ(as_hex(&x), "0x" + expected.str());
}

TEST(CxxHelpers, CallbackTracingNamesMatchTheQueries) {
  const auto names = rocprofiler::sdk::get_callback_tracing_names();
  EXPECT_EQ(names.size(),
            static_cast<size_t>(ROCPROFILER_CALLBACK_TRACING_LAST));
  EXPECT_EQ(names[ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API].name,
            "HSA_CORE_API");
  // NONE as rocprofiler-sdk 1.0.0 names it, without operations.
  EXPECT_EQ(names.at(ROCPROFILER_CALLBACK_TRACING_NONE), "NONE");
  EXPECT_TRUE(names[ROCPROFILER_CALLBACK_TRACING_NONE].operations.empty());
  EXPECT_EQ(rocprofiler::sdk::get_buffer_tracing_names().at(
                ROCPROFILER_BUFFER_TRACING_NONE),
            "NONE");
  const auto& hsa = names[ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API];
  EXPECT_EQ(hsa.value, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API);
  ASSERT_EQ(hsa.operations.size(),
            static_cast<size_t>(ROCPROFILER_HSA_CORE_API_ID_LAST));
  EXPECT_EQ(hsa.operations[ROCPROFILER_HSA_CORE_API_ID_hsa_init], "hsa_init");
  // A kind numbered from 1: operation 0 (NONE) is "".
  const auto& dispatch = names[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH];
  ASSERT_EQ(dispatch.operations.size(),
            static_cast<size_t>(ROCPROFILER_KERNEL_DISPATCH_LAST));
  EXPECT_EQ(dispatch.operations[0], "");
  EXPECT_EQ(dispatch.operations[ROCPROFILER_KERNEL_DISPATCH_COMPLETE],
            "KERNEL_DISPATCH_COMPLETE");
  // Every name as the C query answers it.
  for (const auto& item : names) {
    if (item.value == ROCPROFILER_CALLBACK_TRACING_NONE) continue;
    for (size_t op = 0; op < item.operations.size(); ++op) {
      const char* expected = nullptr;
      if (rocprofiler_query_callback_tracing_kind_operation_name(
              item.value, static_cast<int32_t>(op), &expected, nullptr) ==
          ROCPROFILER_STATUS_SUCCESS) {
        EXPECT_EQ(item.operations[op], expected);
      } else {
        EXPECT_EQ(item.operations[op], "");
      }
    }
  }
  // The other spellings of the same look-ups.
  EXPECT_EQ(names.at(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API),
            "HSA_CORE_API");
  EXPECT_EQ(names.at(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                     ROCPROFILER_HSA_CORE_API_ID_hsa_init),
            "hsa_init");
  EXPECT_EQ(hsa[ROCPROFILER_HSA_CORE_API_ID_hsa_init], "hsa_init");
  EXPECT_EQ(hsa(), "HSA_CORE_API");
  size_t seen = 0;
  for (auto [op, name] : hsa.items()) {
    EXPECT_EQ(*name, hsa.operations.at(static_cast<size_t>(op)));
    ++seen;
  }
  EXPECT_EQ(seen, hsa.operations.size());
  EXPECT_EQ(names.items().size(), names.size());
  // Outside the enum: std::out_of_range, as the 1.0.0 helper's at().
  EXPECT_THROW(names[999], std::out_of_range);
  EXPECT_THROW(names.at(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, 100000),
               std::out_of_range);
  // Other name types.
  const auto as_strings =
      rocprofiler::sdk::get_callback_tracing_names<std::string>();
  EXPECT_EQ(as_strings.at(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API),
            std::string("MARKER_CORE_API"));
  const auto as_c = rocprofiler::sdk::get_callback_tracing_names<const char*>();
  EXPECT_STREQ(as_c[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH].operations[0],
               "");
}

TEST(CxxHelpers, BufferTracingNames) {
  const auto names = rocprofiler::sdk::get_buffer_tracing_names();
  EXPECT_EQ(names.size(), static_cast<size_t>(ROCPROFILER_BUFFER_TRACING_LAST));
  EXPECT_EQ(names[ROCPROFILER_BUFFER_TRACING_MEMORY_COPY].name, "MEMORY_COPY");
  EXPECT_EQ(names[ROCPROFILER_BUFFER_TRACING_MEMORY_COPY]
                .operations[ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST],
            "MEMORY_COPY_DEVICE_TO_HOST");
  EXPECT_EQ(names[ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API].name,
            "HIP_RUNTIME_API");
  EXPECT_TRUE(names[ROCPROFILER_BUFFER_TRACING_KFD_QUEUE].operations.empty());
}

TEST(CxxHelpers, HandlesCompareAndHash) {
  const rocprofiler_agent_id_t a{1}, b{2}, a2{1};
  EXPECT_TRUE(a == a2);
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(b >= a);
  std::unordered_map<rocprofiler_agent_id_t, int> by_agent;
  by_agent[a] = 1;
  by_agent[b] = 2;
  by_agent[a2] = 3;
  EXPECT_EQ(by_agent.size(), 2u);
  EXPECT_EQ(by_agent[a], 3);
  std::set<rocprofiler_buffer_id_t> buffers{{3}, {1}, {3}};
  EXPECT_EQ(buffers.size(), 2u);
  EXPECT_EQ(std::hash<rocprofiler_context_id_t>{}({7}),
            std::hash<uint64_t>{}(7));
  EXPECT_TRUE((rocprofiler_dim3_t{1, 2, 3} == rocprofiler_dim3_t{1, 2, 3}));
}

}  // namespace
