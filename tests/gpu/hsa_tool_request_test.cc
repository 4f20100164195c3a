// The HSA tool hand-over without the user's HSA_TOOLS_LIB
// (runtime/gpu/tool_request.h), on softhsa, which like ROCR 5.2.3 loads
// tools only from that variable at the first hsa_init: a rocprofiler-sdk
// tool configuring KERNEL_DISPATCH buffer tracing before the runtime
// initialises gets its dispatches, and the variable is the user's again
// once the runtime has loaded the tracer; configured after the runtime
// initialised without it, the tool is told once on stderr; the tracer named
// twice (under its rocprofiler-sdk name and its own) is loaded once; a
// roctracer client enabling HSA_OPS activity before hsa_init gets its
// dispatch the same way. Each
// case runs in a forked child: the runtime and the registration are once
// per process.
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/sdk/bounded_child.h"
#include "tests/sdk/tool_configure.h"

namespace {

std::atomic<int> g_dispatches{0};
rocprofiler_buffer_id_t g_buffer{0};
int g_kinds = 1;  // configured: KERNEL_DISPATCH, then MEMORY_COPY if 2
bool g_agents_first = false;  // initialize queries the agents first
size_t g_agents = 0;

rocprofiler_status_t CountAgents(rocprofiler_agent_version_t, const void**,
                                 size_t count, void*) {
  g_agents = count;
  return ROCPROFILER_STATUS_SUCCESS;
}

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t** headers, size_t count, void*,
             uint64_t) {
  for (size_t i = 0; i < count; ++i) {
    if (headers[i]->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
        headers[i]->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) {
      ++g_dispatches;
    }
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  // As Kineto's initialize does: the agents before any service, which makes
  // this library initialize the runtime itself.
  if (g_agents_first && rocprofiler_query_available_agents(
                            ROCPROFILER_AGENT_INFO_VERSION_0, &CountAgents,
                            sizeof(rocprofiler_agent_v0_t),
                            nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  rocprofiler_context_id_t context{0};
  if (rocprofiler_create_context(&context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          context, 1 << 16, 1 << 15, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
          &Deliver, nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0,
          g_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  if (g_kinds > 1 && rocprofiler_configure_buffer_tracing_service(
                         context, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
                         nullptr, 0, g_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  return rocprofiler_start_context(context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                          : 1;
}

bool ConfigureTool() {
  return rocprofiler_force_configure(&sdk_test::UnnamedConfigure<Initialize>) ==
         ROCPROFILER_STATUS_SUCCESS;
}

// One dispatch of the empty kernel, waited for, then the buffer flushed:
// the dispatch records delivered.
int DispatchOnce(gpu_test::Program& p) {
  hsa_queue_t* q = p.Queue();
  if (q == nullptr) return -1;
  hsa_signal_t done{};
  hsa_signal_create(1, 0, nullptr, &done);
  gpu_test::Dispatch(q, p.empty, p.kernarg, done);
  gpu_test::WaitZero(done);
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
  if (g_buffer.handle != 0) rocprofiler_flush_buffer(g_buffer);
  return g_dispatches.load();
}

bool NamesTracer(const char* value) {
  const std::string tracer = gpu_test::TracerPath();
  const std::string base = tracer.substr(tracer.rfind('/') + 1);
  return value != nullptr && std::string(value).find(base) != std::string::npos;
}

// The user's HSA_TOOLS_LIB when the user had none: the tracer keeps an
// empty entry (no tools) rather than removing the variable.
bool Unnamed(const char* value) { return value != nullptr && *value == '\0'; }

// The child's stderr goes to `path` (read by the parent).
void StderrTo(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

std::string TempFile(const char* name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

constexpr char kWarning[] = "GPU activity";

TEST(HsaToolRequest, ConfiguredBeforeHsaInitTheRuntimeLoadsTheTracer) {
  const std::string err = TempFile("before_init.err");
  static std::string err_path;
  err_path = err;
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    unsetenv("HSA_TOOLS_LIB");
    if (!ConfigureTool()) return 2;
    // Named for the runtime's first hsa_init ...
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 3;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    // ... and empty again once the runtime has loaded it: a child process
    // started now loads no tools, as with the user's environment.
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 5;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err);
  EXPECT_EQ(Occurrences(Slurp(err), kWarning), 0u) << Slurp(err);
}

TEST(HsaToolRequest, TheEnvironmentArrayIsNeverReallocatedOrShifted) {
  static std::string err_path;
  err_path = TempFile("environ.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    // Reserved (empty) when the library loaded, the process's environment
    // as the test started it having no HSA_TOOLS_LIB.
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 2;
    // Other threads may be reading the environment while the request and
    // the hand-over change the variable: the array and the position of
    // every entry stay where they were.
    char** const array = environ;
    size_t count = 0;
    while (environ[count] != nullptr) ++count;
    const size_t position = [] {
      size_t i = 0;
      while (std::strncmp(environ[i], "HSA_TOOLS_LIB=", 14) != 0) ++i;
      return i;
    }();
    auto unmoved = [&] {
      size_t n = 0;
      while (environ[n] != nullptr) ++n;
      return environ == array && n == count &&
             std::strncmp(environ[position], "HSA_TOOLS_LIB=", 14) == 0;
    };
    if (!ConfigureTool()) return 3;
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB")) || !unmoved()) return 4;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 5;
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB")) || !unmoved()) return 6;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
}

TEST(HsaToolRequest, AfterShutDownTheNextHsaInitLoadsTheTracerAgain) {
  static std::string err_path;
  err_path = TempFile("reinit.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    if (!ConfigureTool()) return 2;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 3;
    p.Stop();
    // The runtime took its table back: the tracer is named again for the
    // next hsa_init, and the tool's dispatches keep coming.
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 4;
    if (!p.Start()) return 5;
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 6;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
  EXPECT_EQ(Occurrences(Slurp(err_path), kWarning), 0u) << Slurp(err_path);
}

TEST(HsaToolRequest, AgentsQueriedFirstInitializeTheRuntimeAsItsTool) {
  static std::string err_path;
  err_path = TempFile("agents_first.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    unsetenv("HSA_TOOLS_LIB");
    g_agents_first = true;
    if (!ConfigureTool()) return 2;
    if (g_agents == 0) return 3;
    // The runtime was initialized by the agent query, with the tracer as
    // its tool: the variable is already back to the user's (none).
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 4;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 5;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
  EXPECT_EQ(Occurrences(Slurp(err_path), kWarning), 0u) << Slurp(err_path);
}

TEST(HsaToolRequest, TheUsersOwnValueComesBack) {
  static std::string err_path;
  err_path = TempFile("user_value.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    // A word that loads nothing: the runtime reports it and goes on.
    setenv("HSA_TOOLS_LIB", "libno_such_tool.so", 1);
    if (!ConfigureTool()) return 2;
    // The tracer first (ROCR loads named tools in the variable's order),
    // the user's tools after it.
    const char* during = std::getenv("HSA_TOOLS_LIB");
    if (!NamesTracer(during)) return 3;
    const std::string value(during);
    const std::string tracer = gpu_test::TracerPath();
    const size_t at_tracer = value.find(tracer.substr(tracer.rfind('/') + 1));
    const size_t at_user = value.find(" libno_such_tool.so");
    if (at_user == std::string::npos || at_user < at_tracer ||
        at_user + std::strlen(" libno_such_tool.so") != value.size()) {
      return 3;
    }
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    const char* after = std::getenv("HSA_TOOLS_LIB");
    if (after == nullptr || std::string(after) != "libno_such_tool.so") {
      return 5;
    }
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
}

TEST(HsaToolRequest, ConfiguredAfterHsaInitWarnsOnce) {
  static std::string err_path;
  err_path = TempFile("after_init.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    unsetenv("HSA_TOOLS_LIB");
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    g_kinds = 2;  // two GPU kinds configured: still one warning
    if (!ConfigureTool()) return 2;
    // Too late to ask: the variable is left alone.
    if (std::getenv("HSA_TOOLS_LIB") != nullptr) return 3;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 0 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
  const std::string err = Slurp(err_path);
  EXPECT_EQ(Occurrences(err, kWarning), 1u) << err;
  EXPECT_NE(err.find("HSA_TOOLS_LIB=librocprofiler-sdk.so.1"),
            std::string::npos)
      << err;
}

// A runtime that loads the tracer but hands it a table of an unknown major
// version: the table is refused, and HSA_TOOLS_LIB is the user's again (no
// child process loads the tracer for nothing).
TEST(HsaToolRequest, ARefusedTableGivesTheVariableBack) {
  static std::string err_path;
  err_path = TempFile("refused.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    if (!ConfigureTool()) return 2;
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 3;
    // HsaApiTable opens with its version (major_id first); the sub-table
    // pointers after it stay null.
    using OnLoadFn = bool (*)(void*, uint64_t, uint64_t, const char* const*);
    auto on_load = reinterpret_cast<OnLoadFn>(dlsym(RTLD_DEFAULT, "OnLoad"));
    if (on_load == nullptr) return 4;
    uint64_t table[64] = {};
    table[0] = 0x7fff;  // major_id: no runtime's
    const char* const none[] = {nullptr};
    if (on_load(table, 0x7fff, 0, none)) return 5;
    return Unnamed(std::getenv("HSA_TOOLS_LIB")) ? 0 : 6;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
}

TEST(HsaToolRequest, TheTracerNamedTwiceIsLoadedOnce) {
  static std::string err_path;
  err_path = TempFile("named_twice.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    // The filter librocprofiler-sdk.so.1 and libroctracer64.so.4 are two
    // objects to the loader, one OnLoad: the runtime calls it twice with
    // its one table.
    const std::string both =
        std::string(std::getenv("SDK_FILTER")) + " " + gpu_test::TracerPath();
    setenv("HSA_TOOLS_LIB", both.c_str(), 1);
    if (!ConfigureTool()) return 2;
    // Named already: left as the user set it.
    if (std::string(std::getenv("HSA_TOOLS_LIB")) != both) return 3;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
}

TEST(HsaToolRequest, AnotherFileUnderTheTracersNameIsNotTheTracer) {
  static std::string err_path;
  err_path = TempFile("other_file.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    // Another rocprofiler-sdk (ROCm's own) named by the user: a file with
    // the SDK's name that is not this tracer, and cannot be loaded here.
    const std::string other = TempFile("librocprofiler-sdk.so");
    {
      std::ofstream f(other);
      f << "not this tracer\n";
    }
    setenv("HSA_TOOLS_LIB", other.c_str(), 1);
    if (!ConfigureTool()) return 2;
    // The tracer names itself beside it ...
    const char* during = std::getenv("HSA_TOOLS_LIB");
    if (!NamesTracer(during) ||
        std::string(during).find(other) == std::string::npos) {
      return 3;
    }
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    // ... and gets its dispatches.
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
}

TEST(HsaToolRequest, OptedOutTheRuntimeIsLeftAlone) {
  static std::string err_path;
  err_path = TempFile("opted_out.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    unsetenv("HSA_TOOLS_LIB");
    setenv("ROCTRACER_AUTO_HSA_TOOL", "0", 1);
    if (!ConfigureTool()) return 2;
    if (std::getenv("HSA_TOOLS_LIB") != nullptr) return 3;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    const int dispatches = DispatchOnce(p);
    p.Stop();
    return dispatches == 0 ? 0 : 10 + dispatches;
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
}

TEST(HsaToolRequest, RoctracerHsaOpsActivityBeforeHsaInit) {
  static std::string err_path;
  err_path = TempFile("roctracer.err");
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    unsetenv("HSA_TOOLS_LIB");
    static gpu_test::Records records;
    roctracer_pool_t* pool = nullptr;
    if (gpu_test::OpenPool(&records, &pool) != ROCTRACER_STATUS_SUCCESS ||
        roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HSA_OPS, pool) !=
            ROCTRACER_STATUS_SUCCESS) {
      return 2;
    }
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 3;
    gpu_test::Program p;
    p.name_tracer = false;
    if (!p.Start()) return 4;
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 5;
    DispatchOnce(p);
    roctracer_flush_activity_expl(pool);
    const size_t dispatches =
        records.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + static_cast<int>(dispatches);
  });
  EXPECT_EQ(rc, 0) << Slurp(err_path);
  // roctracer clients are not warned.
  EXPECT_EQ(Occurrences(Slurp(err_path), kWarning), 0u);
}

}  // namespace
