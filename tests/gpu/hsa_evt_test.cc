// HSA_EVT callbacks (roctracer 4.1's HSA event domain) of an HSA program on
// softhsa with libroctracer64.so.4 as its tool: a CODEOBJ event per loaded
// code object and a KSYMBOL event per kernel symbol when an executable is
// frozen, the same events with `unload` set before it is destroyed, with the
// fields of hsa_evt_data_t filled from the runtime's loader extension.
#include <gtest/gtest.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "tests/gpu/gpu_test_util.h"

namespace {

constexpr char kScale[] =
    "_ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj";
constexpr char kScaleName[] =
    "gputest::scale(void const*, hsa_kernel_dispatch_packet_s const*, "
    "unsigned int, unsigned int, unsigned int)";

// A copy of each callback's data, with the strings it pointed to.
struct Event {
  uint32_t op;
  hsa_evt_data_t data;
  std::string text;  // uri or name
};

void Collect(uint32_t domain, uint32_t op, const void* data, void* arg) {
  ASSERT_EQ(domain, uint32_t{ACTIVITY_DOMAIN_HSA_EVT});
  const auto* d = static_cast<const hsa_evt_data_t*>(data);
  Event e{op, *d, ""};
  // The strings live for the call only: keep copies, drop the pointers.
  if (op == HSA_EVT_ID_CODEOBJ && d->codeobj.uri != nullptr) {
    e.text = d->codeobj.uri;
    e.data.codeobj.uri = nullptr;
  }
  if (op == HSA_EVT_ID_KSYMBOL && d->ksymbol.name != nullptr) {
    e.text = d->ksymbol.name;
    e.data.ksymbol.name = nullptr;
  }
  static_cast<std::vector<Event>*>(arg)->push_back(e);
}

class HsaEvt : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("HSA_TOOLS_LIB", gpu_test::TracerPath().c_str(), 1);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
    ASSERT_FALSE(gpus.empty());
    gpu_ = gpus[0];
  }
  void TearDown() override {
    roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_EVT);
    hsa_shut_down();
  }
  std::vector<Event> Of(uint32_t op) const {
    std::vector<Event> out;
    for (const Event& e : events_) {
      if (e.op == op) out.push_back(e);
    }
    return out;
  }

  hsa_agent_t gpu_{0};
  std::vector<Event> events_;
};

TEST_F(HsaEvt, CodeObjectAndKernelSymbolsAtLoadAndUnload) {
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_EVT, &Collect,
                                             &events_),
            ROCTRACER_STATUS_SUCCESS);
  hsa_test::Loaded loaded;
  ASSERT_EQ(hsa_test::LoadFile(gpu_test::kKernels, gpu_, &loaded),
            HSA_STATUS_SUCCESS);
  const std::map<std::string, uint64_t> objects = {
      {"empty", hsa_test::KernelObject(loaded.executable, gpu_, "empty")},
      {"stamp", hsa_test::KernelObject(loaded.executable, gpu_, "stamp")},
      {kScaleName, hsa_test::KernelObject(loaded.executable, gpu_, kScale)}};

  // Load: the code object first, then its kernels.
  ASSERT_EQ(events_.size(), 4u);
  ASSERT_EQ(events_[0].op, uint32_t{HSA_EVT_ID_CODEOBJ});
  const auto co = events_[0].data.codeobj;  // a copy: events_ is cleared
  EXPECT_EQ(co.unload, 0);
  EXPECT_EQ(co.storage_type,
            uint32_t{HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE});
  EXPECT_EQ(co.storage_file, loaded.fd);
  EXPECT_EQ(co.memory_base, 0u);
  EXPECT_EQ(co.memory_size, 0u);
  EXPECT_EQ(events_[0].text.rfind("file://", 0), 0u) << events_[0].text;
  EXPECT_EQ(co.uri_length, events_[0].text.size());
  EXPECT_NE(co.load_base, 0u);
  EXPECT_GT(co.load_size, 0u);
  // Each kernel object lies in the loaded code object.
  std::map<std::string, uint64_t> seen;
  for (const Event& e : Of(HSA_EVT_ID_KSYMBOL)) {
    EXPECT_EQ(e.data.ksymbol.unload, 0);
    EXPECT_EQ(e.data.ksymbol.name_length, e.text.size());
    EXPECT_GE(e.data.ksymbol.object, co.load_base);
    EXPECT_LT(e.data.ksymbol.object, co.load_base + co.load_size);
    seen[e.text] = e.data.ksymbol.object;
  }
  EXPECT_EQ(seen, objects);

  // Unload, before the executable goes: the same symbols and code object.
  events_.clear();
  hsa_test::Unload(&loaded);
  ASSERT_EQ(events_.size(), 4u);
  seen.clear();
  for (const Event& e : Of(HSA_EVT_ID_KSYMBOL)) {
    EXPECT_EQ(e.data.ksymbol.unload, 1);
    seen[e.text] = e.data.ksymbol.object;
  }
  EXPECT_EQ(seen, objects);
  auto unloaded = Of(HSA_EVT_ID_CODEOBJ);
  ASSERT_EQ(unloaded.size(), 1u);
  EXPECT_EQ(unloaded[0].data.codeobj.unload, 1);
  EXPECT_EQ(unloaded[0].data.codeobj.load_base, co.load_base);
  EXPECT_EQ(unloaded[0].data.codeobj.load_size, co.load_size);
  EXPECT_EQ(unloaded[0].data.codeobj.load_delta, co.load_delta);
}

// A code object read from memory says where: base and size, no file.
TEST_F(HsaEvt, CodeObjectFromMemory) {
  ASSERT_EQ(
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_EVT, HSA_EVT_ID_CODEOBJ,
                                   &Collect, &events_),
      ROCTRACER_STATUS_SUCCESS);
  std::ifstream file(gpu_test::kKernels, std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  ASSERT_FALSE(image.empty());
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(image.data(),
                                                      image.size(), &reader),
            HSA_STATUS_SUCCESS);
  hsa_executable_t executable;
  ASSERT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL,
                                      HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                      nullptr, &executable),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_load_agent_code_object(executable, gpu_, reader,
                                                  nullptr, nullptr),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_freeze(executable, nullptr), HSA_STATUS_SUCCESS);
  hsa_executable_destroy(executable);
  hsa_code_object_reader_destroy(reader);
  // Only the op enabled: no KSYMBOL events.
  ASSERT_EQ(events_.size(), 2u);
  for (const Event& e : events_) {
    ASSERT_EQ(e.op, uint32_t{HSA_EVT_ID_CODEOBJ});
    EXPECT_EQ(e.data.codeobj.storage_type,
              uint32_t{HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY});
    EXPECT_EQ(e.data.codeobj.storage_file, -1);
    EXPECT_NE(e.data.codeobj.memory_base, 0u);
    EXPECT_EQ(e.data.codeobj.memory_size, image.size());
    EXPECT_EQ(e.text.rfind("memory://", 0), 0u) << e.text;
  }
  EXPECT_EQ(events_[0].data.codeobj.unload, 0);
  EXPECT_EQ(events_[1].data.codeobj.unload, 1);
}

// Disabled: nothing more is called.
TEST_F(HsaEvt, NoEventsOnceDisabled) {
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_EVT, &Collect,
                                             &events_),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_EVT),
            ROCTRACER_STATUS_SUCCESS);
  hsa_test::Loaded loaded;
  ASSERT_EQ(hsa_test::LoadFile(gpu_test::kKernels, gpu_, &loaded),
            HSA_STATUS_SUCCESS);
  hsa_test::Unload(&loaded);
  EXPECT_TRUE(events_.empty());
}

}  // namespace
