// String arguments the tracer cannot trust: invalid pointers, pointers into
// unmapped or inaccessible pages, strings running into an unmapped page. The
// tracer must record them as unreadable, never fault, and leave the call to
// the runtime, which gives its own error. The C-symbol stubs are linked into
// this test in front of the real ROCm 5.2.3 runtimes.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "codegen/support/arg_format.h"
#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "runtime/intercept/string_arena.h"
#include "tests/core/reset.h"
#include "tests/intercept/flickering_page.h"

namespace {

using roctracer::codegen::kUnreadableString;

constexpr size_t kPage = 4096;

// Three pages: readable, unmapped, inaccessible.
struct BadPages {
  BadPages() {
    void* p = mmap(nullptr, 3 * kPage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) std::abort();
    base = static_cast<char*>(p);
    munmap(base + kPage, kPage);
    mprotect(base + 2 * kPage, kPage, PROT_NONE);
  }
  ~BadPages() {
    munmap(base, kPage);
    munmap(base + 2 * kPage, kPage);
  }
  char* readable() const { return base; }
  const char* unmapped() const { return base + kPage + 8; }
  const char* inaccessible() const { return base + 2 * kPage + 8; }
  char* base;
};

class StringArenaCopyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    arena_ = roctracer::StringArena::ForThisThread();
    ASSERT_NE(arena_, nullptr);
    mark_ = arena_->Mark();
  }
  void TearDown() override { arena_->Release(mark_); }

  // A copy equal to `s` that is not `s`.
  void ExpectCopied(const char* s) {
    const char* copy = arena_->Copy(s);
    ASSERT_NE(copy, kUnreadableString);
    EXPECT_NE(copy, s);
    EXPECT_STREQ(copy, s);
  }

  roctracer::StringArena* arena_ = nullptr;
  uint64_t mark_ = 0;
};

TEST_F(StringArenaCopyTest, InvalidPointersAreUnreadable) {
  BadPages pages;
  EXPECT_EQ(arena_->Copy(reinterpret_cast<const char*>(0x10)),
            kUnreadableString);
  EXPECT_EQ(arena_->Copy(reinterpret_cast<const char*>(0xffff800000001000)),
            kUnreadableString);
  EXPECT_EQ(arena_->Copy(pages.unmapped()), kUnreadableString);
  EXPECT_EQ(arena_->Copy(pages.inaccessible()), kUnreadableString);
  // No NUL before the unmapped page.
  std::memset(pages.readable(), 'x', kPage);
  EXPECT_EQ(arena_->Copy(pages.readable() + kPage - 5), kUnreadableString);
  EXPECT_EQ(arena_->Copy(pages.readable()), kUnreadableString);
  // A NUL in the page's last byte: the string ends before the unmapped page.
  pages.readable()[kPage - 1] = '\0';
  ExpectCopied(pages.readable() + kPage - 100);
  ExpectCopied(pages.readable());
  // The arena still works after refusals.
  ExpectCopied("after");
}

TEST_F(StringArenaCopyTest, ReadableStringsAnywhereAreCopied) {
  ExpectCopied("a literal");
  ExpectCopied("");
  char on_stack[64];
  std::snprintf(on_stack, sizeof(on_stack), "on the stack %d", 42);
  ExpectCopied(on_stack);
  std::string small = "on the heap, longer than the small-string buffer";
  ExpectCopied(small.c_str());
  std::string huge(5u << 20, 'h');  // malloc maps it: no known mapping
  ExpectCopied(huge.c_str());
  std::string from_thread;
  std::thread([&] { from_thread = std::string(300, 't'); }).join();
  ExpectCopied(from_thread.c_str());
  // Spanning three pages of an anonymous mapping.
  void* p = mmap(nullptr, 3 * kPage, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  char* text = static_cast<char*>(p);
  std::memset(text, 'm', 3 * kPage);
  text[2 * kPage + 17] = '\0';
  ExpectCopied(text + 100);
  // Copies made before stay valid while later ones grow.
  const char* first = arena_->Copy(text + 100);
  const char* second = arena_->Copy(text + 5);
  EXPECT_EQ(std::strlen(first), 2 * kPage + 17 - 100);
  EXPECT_EQ(std::strlen(second), 2 * kPage + 17 - 5);
  munmap(p, 3 * kPage);
}

TEST(ArgFormatTest, UnreadableStringsPrintAsSuch) {
  std::string out;
  roctracer::codegen::FormatValue<1>(&out, &kUnreadableString[0], 1);
  EXPECT_EQ(out, "<unreadable>");
  out.clear();
  const char* text = "<unreadable>";
  roctracer::codegen::FormatValue<1>(&out, text, 1);
  EXPECT_EQ(out, "\"<unreadable>\"");
}

// What the ENTER callbacks saw: every string argument as printed.
std::vector<std::string> g_printed;

int Print(uint32_t, const void* value, int32_t indirection, const char* type,
          const char*, const char* text, int32_t, void*) {
  if (indirection == 1 && std::strstr(type, "char") != nullptr &&
      *static_cast<const char* const*>(value) != nullptr) {
    g_printed.push_back(text);
  }
  return 0;
}

void Callback(uint32_t domain, uint32_t op, const void* data, void*) {
  if (domain == ACTIVITY_DOMAIN_HIP_API) {
    const auto* d = static_cast<const hip_api_data_t*>(data);
    if (d->phase != ACTIVITY_API_PHASE_ENTER) return;
    roctracer::hip_api::IterateArgs(op, d, false, 1, &Print, nullptr);
  } else {
    const auto* d = static_cast<const hsa_api_data_t*>(data);
    if (d->phase != ACTIVITY_API_PHASE_ENTER) return;
    roctracer::hsa_api::IterateArgs(op, d, false, 1, &Print, nullptr);
  }
}

class BadStringCallTest : public roctracer_test::TracerTest {
 protected:
  static void SetUpTestSuite() {
    // The stubs find the runtimes with dlsym(RTLD_NEXT); the linker may have
    // dropped them (every reference resolves to a stub).
    ASSERT_NE(dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_GLOBAL), nullptr);
    ASSERT_NE(dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_GLOBAL), nullptr);
  }

  // The call's result untraced and with every callback enabled must be the
  // same, and the callback must have seen `unreadable` of its strings as
  // "<unreadable>".
  template <class R>
  void ExpectSameResult(const std::function<R()>& call, size_t unreadable) {
    const R untraced = call();
    g_printed.clear();
    ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HIP_API,
                                               &Callback, nullptr),
              ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API,
                                               &Callback, nullptr),
              ROCTRACER_STATUS_SUCCESS);
    const R traced = call();
    roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HIP_API);
    roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_API);
    EXPECT_EQ(traced, untraced);
    size_t seen = 0;
    for (const std::string& s : g_printed) seen += s == "<unreadable>";
    EXPECT_EQ(seen, unreadable);
  }

  BadPages pages_;
};

const char* const kSmall = reinterpret_cast<const char*>(0x10);

TEST_F(BadStringCallTest, HipDeviceGetByPCIBusId) {
  int device = -1;
  ExpectSameResult<hipError_t>(
      [&] { return hipDeviceGetByPCIBusId(&device, kSmall); }, 1);
  ExpectSameResult<hipError_t>(
      [&] { return hipDeviceGetByPCIBusId(&device, pages_.unmapped()); }, 1);
}

TEST_F(BadStringCallTest, HipModuleLoadAndGetFunction) {
  hipModule_t module = nullptr;
  ExpectSameResult<hipError_t>([&] { return hipModuleLoad(&module, kSmall); },
                               1);
  ExpectSameResult<hipError_t>(
      [&] { return hipModuleLoad(&module, pages_.inaccessible()); }, 1);
  hipFunction_t function = nullptr;
  ExpectSameResult<hipError_t>(
      [&] { return hipModuleGetFunction(&function, nullptr, kSmall); }, 1);
  ExpectSameResult<hipError_t>(
      [&] {
        return hipModuleGetFunction(&function, nullptr, pages_.unmapped());
      },
      1);
}

TEST_F(BadStringCallTest, HsaExecutableGetSymbol) {
  hsa_executable_symbol_t symbol{};
  hsa_agent_t agent{1};
  // The deprecated lookup takes two strings.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ExpectSameResult<hsa_status_t>(
      [&] {
        return hsa_executable_get_symbol(hsa_executable_t{1}, kSmall,
                                         pages_.unmapped(), agent, 0, &symbol);
      },
      2);
#pragma GCC diagnostic pop
  ExpectSameResult<hsa_status_t>(
      [&] {
        return hsa_executable_get_symbol_by_name(
            hsa_executable_t{1}, pages_.inaccessible(), &agent, &symbol);
      },
      1);
  // A readable name still reaches the callback as text.
  ExpectSameResult<hsa_status_t>(
      [&] {
        return hsa_executable_get_symbol_by_name(hsa_executable_t{1}, "kernel",
                                                 &agent, &symbol);
      },
      0);
  ASSERT_EQ(g_printed.size(), 1u);
  EXPECT_EQ(g_printed[0], "\"kernel\"");
}

// Threads make traced calls whose string lies in a page another thread
// unmaps and maps again: each ENTER callback sees the name or
// "<unreadable>", the runtime's result is the untraced one, nothing faults
// (also under ASan and TSan).
std::atomic<int> g_names_seen{0};
std::atomic<int> g_unreadable_seen{0};
std::atomic<int> g_wrong_seen{0};
const std::string* g_expected_name = nullptr;

void CheckName(uint32_t, uint32_t op, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  if (op != HSA_API_ID_hsa_executable_get_symbol_by_name ||
      d->phase != ACTIVITY_API_PHASE_ENTER) {
    return;
  }
  const char* name = d->args.hsa_executable_get_symbol_by_name.symbol_name;
  if (name == kUnreadableString) {
    g_unreadable_seen.fetch_add(1);
  } else if (*g_expected_name == name) {
    g_names_seen.fetch_add(1);
  } else {
    g_wrong_seen.fetch_add(1);
  }
}

TEST_F(BadStringCallTest, NameUnmappedWhileTracedCallsRun) {
  roctracer_test::FlickeringPage page("a_kernel_name_in_a_flickering_page");
  g_expected_name = &page.expected();
  hsa_agent_t agent{1};
  hsa_executable_symbol_t symbol{};
  const hsa_status_t untraced = hsa_executable_get_symbol_by_name(
      hsa_executable_t{1}, "any", &agent, &symbol);
  ASSERT_EQ(
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                   HSA_API_ID_hsa_executable_get_symbol_by_name,
                                   &CheckName, nullptr),
      ROCTRACER_STATUS_SUCCESS);
  std::atomic<bool> stop{false};
  std::atomic<int> other_results{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&] {
      hsa_agent_t a{1};
      hsa_executable_symbol_t s{};
      while (!stop.load()) {
        if (hsa_executable_get_symbol_by_name(hsa_executable_t{1}, page.text(),
                                              &a, &s) != untraced) {
          other_results.fetch_add(1);
        }
      }
    });
  }
  const int cycles = page.Flicker([](int cycles) {
    return cycles >= 200 && g_unreadable_seen.load() > 0 &&
           g_names_seen.load() > 0;
  });
  stop = true;
  for (auto& t : callers) t.join();
  roctracer_disable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                HSA_API_ID_hsa_executable_get_symbol_by_name);
  EXPECT_GE(cycles, 10);
  EXPECT_EQ(other_results.load(), 0);
  EXPECT_EQ(g_wrong_seen.load(), 0);
  EXPECT_GT(g_names_seen.load(), 0);
  std::printf("%d cycles: %d names, %d unreadable\n", cycles,
              g_names_seen.load(), g_unreadable_seen.load());
}

}  // namespace
