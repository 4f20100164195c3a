// Generated name tables and argument printers, checked the way a tool would
// use them: names round-trip, arguments come out with their header
// spelling, NULL is never dereferenced, out-params are not read at ENTER,
// and the caller's dereference depth is honoured.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "runtime/intercept/api_hook.h"

namespace {

namespace hsa_api = roctracer::hsa_api;
namespace hip_api = roctracer::hip_api;

struct Arg {
  uint32_t index;
  const void* address;
  int32_t indirection;
  std::string type;
  std::string name;
  std::string value;
  int32_t derefs;
};

int Collect(uint32_t index, const void* address, int32_t indirection,
            const char* type, const char* name, const char* value,
            int32_t derefs, void* user) {
  static_cast<std::vector<Arg>*>(user)->push_back(
      Arg{index, address, indirection, type, name, value, derefs});
  return 0;
}

TEST(NameTables, EveryIdRoundTripsThroughItsName) {
  uint32_t live = 0;
  for (uint32_t id = 0; id < hsa_api::kCount; ++id) {
    const char* name = hsa_api::Name(id);
    if (name == nullptr) continue;
    ++live;
    uint32_t back = ~0u;
    ASSERT_TRUE(hsa_api::IdByName(name, &back)) << name;
    EXPECT_EQ(id, back) << name;
  }
  EXPECT_EQ(hsa_api::kLiveCount, live);
  live = 0;
  for (uint32_t id = 0; id < hip_api::kCount; ++id) {
    const char* name = hip_api::Name(id);
    if (name == nullptr) continue;
    ++live;
    uint32_t back = ~0u;
    ASSERT_TRUE(hip_api::IdByName(name, &back)) << name;
    EXPECT_EQ(id, back) << name;
  }
  EXPECT_EQ(hip_api::kLiveCount, live);
}

TEST(NameTables, KnownNamesAndBadInput) {
  EXPECT_STREQ("hsa_init", hsa_api::Name(HSA_API_ID_hsa_init));
  EXPECT_EQ(0, HSA_API_ID_hsa_init);
  EXPECT_STREQ("hipMalloc", hip_api::Name(HIP_API_ID_hipMalloc));
  EXPECT_EQ(0, HIP_API_ID_NONE);
  EXPECT_EQ(nullptr, hip_api::Name(HIP_API_ID_NONE));
  EXPECT_EQ(nullptr, hip_api::Name(HIP_API_ID_RESERVED_50));  // reserved
  EXPECT_EQ(nullptr, hsa_api::Name(hsa_api::kCount));
  EXPECT_EQ(nullptr, hsa_api::Name(0xffffffffu));
  uint32_t id = 12345;
  EXPECT_FALSE(hsa_api::IdByName("hsa_nonexistent", &id));
  EXPECT_FALSE(hsa_api::IdByName("hsa_ini", &id));  // prefix only
  EXPECT_FALSE(hsa_api::IdByName(nullptr, &id));
  EXPECT_FALSE(hsa_api::IdByName("hsa_init", nullptr));
  EXPECT_FALSE(hip_api::IdByName("RESERVED_50", &id));
  EXPECT_EQ(12345u, id);
  EXPECT_EQ(5u, hsa_api::ArgCount(HSA_API_ID_hsa_amd_pointer_info));
  EXPECT_EQ(0u, hsa_api::ArgCount(HSA_API_ID_hsa_init));
  EXPECT_GT(HIP_API_ID_NUMBER, HIP_API_ID_LAST);
  EXPECT_EQ(HSA_API_ID_NUMBER, HSA_API_ID_LAST + 1);
}

class PointerInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    info_.size = sizeof(info_);
    info_.type = HSA_EXT_POINTER_TYPE_HSA;
    info_.sizeInBytes = 4096;
    agent_.handle = 77;
    agents_ = &agent_;
    count_ = 3;
    auto& a = data_.args.hsa_amd_pointer_info;
    a.ptr = reinterpret_cast<const void*>(0x1000);
    a.info = &info_;
    a.alloc = nullptr;
    a.num_agents_accessible = &count_;
    a.accessible = &agents_;
  }

  std::vector<Arg> Iterate(bool exit_phase, int32_t max_deref) {
    std::vector<Arg> args;
    EXPECT_EQ(0, hsa_api::IterateArgs(HSA_API_ID_hsa_amd_pointer_info, &data_,
                                      exit_phase, max_deref, &Collect, &args));
    return args;
  }

  hsa_api_data_t data_{};
  hsa_amd_pointer_info_t info_{};
  hsa_agent_t agent_{};
  hsa_agent_t* agents_ = nullptr;
  uint32_t count_ = 0;
};

TEST_F(PointerInfoTest, ReportsSpellingNamesAddressesAndIndirection) {
  std::vector<Arg> args = Iterate(true, 8);
  ASSERT_EQ(5u, args.size());
  const auto& a = data_.args.hsa_amd_pointer_info;
  const char* names[] = {"ptr", "info", "alloc", "num_agents_accessible",
                         "accessible"};
  const char* types[] = {"const void *", "hsa_amd_pointer_info_t *",
                         "void *(*)(size_t)", "uint32_t *", "hsa_agent_t **"};
  const void* addresses[] = {&a.ptr, &a.info, &a.alloc,
                             &a.num_agents_accessible, &a.accessible};
  const int32_t indirection[] = {1, 1, 1, 1, 2};
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(i, args[i].index);
    EXPECT_EQ(names[i], args[i].name);
    EXPECT_EQ(types[i], args[i].type);
    EXPECT_EQ(addresses[i], args[i].address);
    EXPECT_EQ(indirection[i], args[i].indirection) << names[i];
  }
}

TEST_F(PointerInfoTest, ExitDereferencesOutParamsAndStructs) {
  std::vector<Arg> args = Iterate(true, 8);
  ASSERT_EQ(5u, args.size());
  EXPECT_EQ("0x1000", args[0].value);  // void* is never dereferenced
  EXPECT_EQ(0, args[0].derefs);
  EXPECT_NE(std::string::npos, args[1].value.find("sizeInBytes=4096"))
      << args[1].value;
  EXPECT_EQ(0u, args[1].value.find("{size="));
  EXPECT_NE(std::string::npos,
            args[1].value.find("type=HSA_EXT_POINTER_TYPE_HSA"))
      << args[1].value;
  EXPECT_EQ(1, args[1].derefs);
  EXPECT_EQ("NULL", args[2].value);
  EXPECT_EQ(0, args[2].derefs);
  EXPECT_EQ("3", args[3].value);
  EXPECT_EQ(1, args[3].derefs);
  EXPECT_EQ("{handle=77}", args[4].value);
  EXPECT_EQ(2, args[4].derefs);
}

TEST_F(PointerInfoTest, EnterNeverReadsOutParams) {
  count_ = 0xdead;
  std::vector<Arg> args = Iterate(false, 8);
  ASSERT_EQ(5u, args.size());
  for (const Arg& a : args) EXPECT_EQ(0, a.derefs) << a.name;
  char expected[32];
  std::snprintf(expected, sizeof(expected), "%p", static_cast<void*>(&count_));
  EXPECT_EQ(expected, args[3].value);
}

TEST_F(PointerInfoTest, MaxDereferenceDepthIsHonoured) {
  std::vector<Arg> none = Iterate(true, 0);
  for (const Arg& a : none) EXPECT_EQ(0, a.derefs) << a.name;
  std::vector<Arg> one = Iterate(true, 1);
  EXPECT_EQ(
      1,
      one[4].derefs);  // hsa_agent_t** -> hsa_agent_t*, printed as an address
  char expected[32];
  std::snprintf(expected, sizeof(expected), "%p", static_cast<void*>(&agent_));
  EXPECT_EQ(expected, one[4].value);
}

TEST_F(PointerInfoTest, NullPointersAreNeverDereferenced) {
  data_.args.hsa_amd_pointer_info.info = nullptr;
  data_.args.hsa_amd_pointer_info.accessible = nullptr;
  std::vector<Arg> args = Iterate(true, 8);
  EXPECT_EQ("NULL", args[1].value);
  EXPECT_EQ("NULL", args[4].value);
  EXPECT_EQ(0, args[4].derefs);
  agents_ = nullptr;  // the pointee pointer is NULL: stop there
  data_.args.hsa_amd_pointer_info.accessible = &agents_;
  args = Iterate(true, 8);
  EXPECT_EQ("NULL", args[4].value);
  EXPECT_EQ(1, args[4].derefs);
}

TEST_F(PointerInfoTest, VisitorCanStopEarly) {
  int seen = 0;
  auto stop_at_second = [](uint32_t index, const void*, int32_t, const char*,
                           const char*, const char*, int32_t, void* user) {
    ++*static_cast<int*>(user);
    return index == 1 ? 42 : 0;
  };
  EXPECT_EQ(42, hsa_api::IterateArgs(HSA_API_ID_hsa_amd_pointer_info, &data_,
                                     true, 8, stop_at_second, &seen));
  EXPECT_EQ(2, seen);
}

TEST(ArgPrinter, BadInputIsRejected) {
  hsa_api_data_t data{};
  std::vector<Arg> args;
  EXPECT_EQ(-1, hsa_api::IterateArgs(hsa_api::kCount, &data, true, 1, &Collect,
                                     &args));
  EXPECT_EQ(-1, hsa_api::IterateArgs(HSA_API_ID_hsa_init, nullptr, true, 1,
                                     &Collect, &args));
  EXPECT_EQ(-1, hsa_api::IterateArgs(HSA_API_ID_hsa_init, &data, true, 1,
                                     nullptr, &args));
  EXPECT_EQ(0, hsa_api::IterateArgs(HSA_API_ID_hsa_init, &data, true, 1,
                                    &Collect, &args));
  EXPECT_TRUE(args.empty());  // no parameters
}

TEST(ArgPrinter, EnumsPrintTheirEnumeratorName) {
  hsa_api_data_t data{};
  data.args.hsa_system_get_info.attribute = HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY;
  std::vector<Arg> args;
  ASSERT_EQ(0, hsa_api::IterateArgs(HSA_API_ID_hsa_system_get_info, &data,
                                    false, 1, &Collect, &args));
  EXPECT_EQ("hsa_system_info_t", args[0].type);
  EXPECT_EQ("HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY", args[0].value);
  // A value the header does not name prints as a number.
  data.args.hsa_system_get_info.attribute =
      static_cast<hsa_system_info_t>(0x7777);
  args.clear();
  hsa_api::IterateArgs(HSA_API_ID_hsa_system_get_info, &data, false, 1,
                       &Collect, &args);
  EXPECT_EQ(std::to_string(0x7777), args[0].value);
}

TEST(ArgPrinter, StringsAreEscapedAndCapped) {
  hsa_api_data_t data{};
  auto& a = data.args.hsa_executable_get_symbol_by_name;
  a.symbol_name = "ke\"r\\n\nel\x01";
  std::vector<Arg> args;
  ASSERT_EQ(0,
            hsa_api::IterateArgs(HSA_API_ID_hsa_executable_get_symbol_by_name,
                                 &data, false, 1, &Collect, &args));
  ASSERT_EQ(4u, args.size());
  EXPECT_EQ("const char *", args[1].type);
  EXPECT_EQ("\"ke\\\"r\\\\n\\nel\\x01\"", args[1].value);
  EXPECT_EQ(1, args[1].derefs);
  EXPECT_EQ(1, args[1].indirection);  // const char* is one level

  std::string long_name(1000, 'a');
  a.symbol_name = long_name.c_str();
  args.clear();
  hsa_api::IterateArgs(HSA_API_ID_hsa_executable_get_symbol_by_name, &data,
                       false, 1, &Collect, &args);
  EXPECT_EQ(
      "\"" + std::string(roctracer::codegen::kMaxStringChars, 'a') + "\"...",
      args[1].value);

  a.symbol_name = nullptr;
  args.clear();
  hsa_api::IterateArgs(HSA_API_ID_hsa_executable_get_symbol_by_name, &data,
                       false, 1, &Collect, &args);
  EXPECT_EQ("NULL", args[1].value);
  EXPECT_EQ(0, args[1].derefs);
}

TEST(ArgPrinter, HipStructsByValueAndThroughPointers) {
  roctracer::hook::DataStorage<hip_api_data_t> storage;
  hip_api_data_t& data = storage.value;
  auto& launch = data.args.hipLaunchKernel;
  launch.function_address = nullptr;
  launch.numBlocks = dim3(1, 2, 3);
  launch.dimBlocks = dim3(64, 1, 1);
  launch.args = nullptr;
  launch.sharedMemBytes = 0;
  launch.stream = nullptr;
  std::vector<Arg> args;
  ASSERT_EQ(0, hip_api::IterateArgs(HIP_API_ID_hipLaunchKernel, &data, false, 4,
                                    &Collect, &args));
  ASSERT_EQ(6u, args.size());
  EXPECT_EQ("dim3", args[1].type);
  EXPECT_EQ("{x=1, y=2, z=3}", args[1].value);
  EXPECT_EQ(0, args[1].indirection);
  EXPECT_EQ("{x=64, y=1, z=1}", args[2].value);
  EXPECT_EQ("hipStream_t", args[5].type);

  hipDeviceProp_t prop{};
  std::strcpy(prop.name, "gfx-test");
  prop.major = 9;
#if HIP_VERSION_MAJOR >= 6
  // HIP's field names: HIP 6 renames the API to hipGetDevicePropertiesR0600
  // (by macro) and names its fields differently.
  data.args.hipGetDeviceProperties.prop = &prop;
  data.args.hipGetDeviceProperties.deviceId = 0;
#else
  data.args.hipGetDeviceProperties.props = &prop;  // HIP's field names
  data.args.hipGetDeviceProperties.device = 0;
#endif
  args.clear();
  ASSERT_EQ(0, hip_api::IterateArgs(HIP_API_ID_hipGetDeviceProperties, &data,
                                    true, 1, &Collect, &args));
  EXPECT_EQ(0u, args[0].value.find("{name=\"gfx-test\""));
  EXPECT_NE(std::string::npos, args[0].value.find("major=9"));
  args.clear();
  hip_api::IterateArgs(HIP_API_ID_hipGetDeviceProperties, &data, false, 1,
                       &Collect, &args);
  EXPECT_EQ(0, args[0].derefs);  // an out-param at ENTER
}

}  // namespace

// StreamArg: the parameter each HIP API names its stream with, as the
// header declares it (every API is checked against its argument list), and
// none in a domain without streams.
TEST(StreamArg, FollowsEachApisParameterTypes) {
  uint32_t takes = 0, creates = 0;
  for (uint32_t id = 0; id < hip_api::kCount; ++id) {
    if (hip_api::Name(id) == nullptr) continue;
    hip_api_data_t data{};
    std::vector<Arg> args;
    hip_api::IterateArgs(id, &data, false, 0, &Collect, &args);
    const void* expected = nullptr;
    hip_api::StreamUse expected_use = hip_api::kNoStream;
    for (const Arg& a : args) {
      if (expected_use == hip_api::kNoStream && a.type == "hipStream_t *") {
        expected_use = hip_api::kStreamCreated;
      }
      if (a.type == "hipStream_t") {
        expected_use = hip_api::kStreamArg;
        expected = a.address;
        break;
      }
    }
    const void* address = nullptr;
    const hip_api::StreamUse use = hip_api::StreamArg(id, &data, &address);
    EXPECT_EQ(use, expected_use) << hip_api::Name(id);
    EXPECT_EQ(hip_api::StreamArg(id, nullptr, nullptr), use);
    if (use == hip_api::kStreamArg) {
      EXPECT_EQ(address, expected) << hip_api::Name(id);
      ++takes;
    }
    if (use == hip_api::kStreamCreated) ++creates;
  }
  EXPECT_GE(takes, 20u);
  EXPECT_GE(creates, 3u);

  hip_api_data_t data{};
  auto* stream = reinterpret_cast<hipStream_t*>(0x1234);
  data.args.hipStreamCreate.stream = stream;
  const void* address = nullptr;
  EXPECT_EQ(hip_api::StreamArg(HIP_API_ID_hipStreamCreate, &data, &address),
            hip_api::kStreamCreated);
  EXPECT_EQ(address, stream);  // the caller's pointer, read at EXIT
  EXPECT_EQ(
      hip_api::StreamArg(HIP_API_ID_hipModuleLaunchKernel, &data, &address),
      hip_api::kStreamArg);
  EXPECT_EQ(address, &data.args.hipModuleLaunchKernel.stream);
  EXPECT_EQ(hip_api::StreamArg(HIP_API_ID_hipMalloc, &data, &address),
            hip_api::kNoStream);
  EXPECT_EQ(hip_api::StreamArg(hip_api::kCount, &data, &address),
            hip_api::kNoStream);
  for (uint32_t id = 0; id < hsa_api::kCount; ++id) {
    EXPECT_EQ(hsa_api::StreamArg(id, nullptr, nullptr), hsa_api::kNoStream);
  }
}

// The printers' numbers are formatted by hand: every digit count and digit
// value of an address (0x, lowercase, no leading zeros; NULL for 0) and
// integers at their limits read as printf writes them.
TEST(ArgFormat, AddressesAndIntegersReadAsPrintfWritesThem) {
  std::vector<uint64_t> values = {0, 1, 9, 10, 15, 16, 0xa0, 0xff, 0x100};
  for (int shift = 0; shift < 64; ++shift) {
    values.push_back(uint64_t{1} << shift);
    values.push_back((uint64_t{1} << shift) - 1);
    values.push_back(0x0123456789abcdefull >> shift);
    values.push_back(0xfedcba9876543210ull >> shift);
  }
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 2000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    values.push_back(x >> (i % 64));
  }
  for (uint64_t v : values) {
    char want[40];
    std::snprintf(want, sizeof(want), v == 0 ? "NULL" : "0x%llx",
                  static_cast<unsigned long long>(v));
    std::string got;
    roctracer::codegen::AppendAddress(&got, static_cast<uintptr_t>(v));
    ASSERT_EQ(got, want) << v;
    got.clear();
    roctracer::codegen::AppendUint(&got, v);
    ASSERT_EQ(got, std::to_string(v));
    got.clear();
    roctracer::codegen::AppendInt(&got, static_cast<long long>(v));
    ASSERT_EQ(got, std::to_string(static_cast<long long>(v)));
  }
}

namespace {

struct Value {
  uint32_t index;
  std::string type;
  std::string name;
  std::string value;
};

void CollectValue(uint32_t index, const char* type, const char* name,
                  const char* value, size_t size, void* user) {
  EXPECT_EQ(std::strlen(value), size) << name;
  static_cast<std::vector<Value>*>(user)->push_back(
      Value{index, type, name, std::string(value, size)});
}

// IterateValues, what a writer printing arguments after the call uses,
// hands over the very texts IterateArgs prints at EXIT without following
// pointers, with their sizes: every API of both domains, its argument bytes
// all 0, all 1 and a mix (integers, enumerators with and without a name,
// NULL and other addresses, bools, structs by value).
template <class Data, class IterateArgsFn, class IterateValuesFn>
void ExpectSameValues(uint32_t count, const char* (*name_of)(uint32_t),
                      IterateArgsFn iterate_args,
                      IterateValuesFn iterate_values) {
  uint32_t checked = 0;
  for (uint32_t id = 0; id < count; ++id) {
    if (name_of(id) == nullptr) continue;
    for (int pattern = 0; pattern < 3; ++pattern) {
      Data data{};
      auto* bytes = reinterpret_cast<unsigned char*>(&data.args);
      for (size_t i = 0; i < sizeof(data.args); ++i) {
        bytes[i] = pattern == 2 ? (i / 3) % 2 : pattern;
      }
      std::vector<Arg> args;
      iterate_args(id, &data, true, 0, &Collect, &args);
      std::vector<Value> values;
      iterate_values(id, &data, &CollectValue, &values);
      ASSERT_EQ(args.size(), values.size()) << name_of(id);
      for (size_t i = 0; i < args.size(); ++i) {
        EXPECT_EQ(args[i].index, values[i].index) << name_of(id);
        EXPECT_EQ(args[i].type, values[i].type) << name_of(id);
        EXPECT_EQ(args[i].name, values[i].name) << name_of(id);
        EXPECT_EQ(args[i].value, values[i].value) << name_of(id);
      }
      checked += static_cast<uint32_t>(args.size());
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(IterateValues, PrintsWhatIterateArgsPrintsAtExit) {
  ExpectSameValues<hip_api_data_t>(
      hip_api::kCount, &hip_api::Name,
      [](uint32_t op, const hip_api_data_t* d, bool exit, int32_t deref,
         roctracer::codegen::ArgVisitor v,
         void* u) { return hip_api::IterateArgs(op, d, exit, deref, v, u); },
      [](uint32_t op, const hip_api_data_t* d,
         roctracer::codegen::ValueVisitor v,
         void* u) { hip_api::IterateValues(op, d, v, u); });
  ExpectSameValues<hsa_api_data_t>(
      hsa_api::kCount, &hsa_api::Name,
      [](uint32_t op, const hsa_api_data_t* d, bool exit, int32_t deref,
         roctracer::codegen::ArgVisitor v,
         void* u) { return hsa_api::IterateArgs(op, d, exit, deref, v, u); },
      [](uint32_t op, const hsa_api_data_t* d,
         roctracer::codegen::ValueVisitor v,
         void* u) { hsa_api::IterateValues(op, d, v, u); });
}

}  // namespace

// Addresses print as printf's "0x%llx" (NULL as "NULL"), decimals as
// "%lld" / "%llu": every digit count, each hex digit in every place.
TEST(ArgFormat, AddressesAndDecimalsPrintAsPrintfDoes) {
  std::vector<unsigned long long> values = {0,
                                            1,
                                            9,
                                            10,
                                            15,
                                            16,
                                            255,
                                            256,
                                            0x7fffffffffffffffull,
                                            0x8000000000000000ull,
                                            0xffffffffffffffffull};
  for (int shift = 0; shift < 64; shift += 4) {
    for (unsigned long long d = 1; d < 16; ++d) {
      values.push_back(d << shift);
      values.push_back((d << shift) | 0x0123456789abcdefull >> (60 - shift));
      values.push_back(0xfedcba9876543210ull >> shift);
    }
  }
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 1000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    values.push_back(x >> (i % 64));
  }
  for (unsigned long long v : values) {
    char want[32], got[32];
    if (v == 0) {
      std::snprintf(want, sizeof(want), "NULL");
    } else {
      std::snprintf(want, sizeof(want), "0x%llx", v);
    }
    *roctracer::codegen::PutAddress(got, static_cast<uintptr_t>(v)) = '\0';
    EXPECT_STREQ(want, got);
    size_t size = 0;
    const char* text =
        roctracer::codegen::AddressText(got, static_cast<uintptr_t>(v), &size);
    EXPECT_STREQ(want, text);
    EXPECT_EQ(std::strlen(want), size);
    std::snprintf(want, sizeof(want), "%llu", v);
    *roctracer::codegen::PutDecimal(got, v) = '\0';
    EXPECT_STREQ(want, got);
    std::snprintf(want, sizeof(want), "%lld", static_cast<long long>(v));
    *roctracer::codegen::PutDecimal(got, static_cast<long long>(v)) = '\0';
    EXPECT_STREQ(want, got);
  }
}
