// The HSA tool hand-over without the user's HSA_TOOLS_LIB
// (runtime/gpu/tool_request.h), on softhsa, which like ROCR 5.2.3 loads
// tools only from that variable at the first hsa_init: a rocprofiler-sdk
// tool configuring KERNEL_DISPATCH buffer tracing before the runtime
// initialises gets its dispatches, and the variable is the user's again
// once the runtime has loaded the tracer; configured after the runtime
// initialised without it, the tool is told once on stderr; the tracer named
// twice (under its rocprofiler-sdk name and its own) is loaded once; a
// roctracer client enabling HSA_OPS activity before hsa_init gets its
// dispatch the same way. A program started meanwhile (fork + exec,
// vfork + exec, system, posix_spawn) gets the user's HSA_TOOLS_LIB, or none;
// the hooked system() keeps the C library's meaning (statuses, the shell's
// argv, SIGINT ignored only while shells run, also with concurrent calls, a
// fork or a cancelled caller).
// Loaded from a path ROCR would split, the library names itself by its soname.
// Each case runs in a forked child: the runtime and the registration are once
// per process.
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

std::string TempFile(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

constexpr char kWarning[] = "GPU activity";

// A scenario's exit status (0: every check passed, else the number of the
// check that failed) and what it wrote on stderr.
struct Outcome {
  int rc;
  std::string err;
};

// Runs `scenario` in a forked child (the runtime and the registration are
// once per process), its stderr captured in $TEST_TMPDIR/<name>.err.
Outcome InChild(const std::string& name, int (*scenario)()) {
  static std::string err_path;
  static int (*run)() = nullptr;
  err_path = TempFile(name + ".err");
  run = scenario;
  const int rc = bounded_child::Run([]() -> int {
    StderrTo(err_path);
    return run();
  });
  return {rc, Slurp(err_path)};
}

// The runtime initialised without the test naming the tracer in
// HSA_TOOLS_LIB: only the library's own request can have named it.
bool StartUnnamed(gpu_test::Program& p) {
  p.name_tracer = false;
  return p.Start();
}

// One dispatch, then the runtime shut down: 0 when `expected` dispatch
// records were delivered, else 10 + their count.
int DispatchAndStop(gpu_test::Program& p, int expected) {
  const int dispatches = DispatchOnce(p);
  p.Stop();
  return dispatches == expected ? 0 : 10 + dispatches;
}

TEST(HsaToolRequest, ConfiguredBeforeHsaInitTheRuntimeLoadsTheTracer) {
  const Outcome o = InChild("before_init", []() -> int {
    unsetenv("HSA_TOOLS_LIB");
    if (!ConfigureTool()) return 2;
    // Named for the runtime's first hsa_init ...
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 3;
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 4;
    // ... and empty again once the runtime has loaded it.
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 5;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(Occurrences(o.err, kWarning), 0u) << o.err;
}

TEST(HsaToolRequest, TheEnvironmentArrayIsNeverReallocatedOrShifted) {
  const Outcome o = InChild("environ", []() -> int {
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
    if (!StartUnnamed(p)) return 5;
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB")) || !unmoved()) return 6;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, AfterShutDownTheNextHsaInitLoadsTheTracerAgain) {
  const Outcome o = InChild("reinit", []() -> int {
    if (!ConfigureTool()) return 2;
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 3;
    p.Stop();
    // The runtime took its table back: the tracer is named again for the
    // next hsa_init, and the tool's dispatches keep coming.
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 4;
    if (!StartUnnamed(p)) return 5;
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 6;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(Occurrences(o.err, kWarning), 0u) << o.err;
}

TEST(HsaToolRequest, AgentsQueriedFirstInitializeTheRuntimeAsItsTool) {
  const Outcome o = InChild("agents_first", []() -> int {
    unsetenv("HSA_TOOLS_LIB");
    g_agents_first = true;
    if (!ConfigureTool()) return 2;
    if (g_agents == 0) return 3;
    // The runtime was initialized by the agent query, with the tracer as
    // its tool: the variable is already back to the user's (none).
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 4;
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 5;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(Occurrences(o.err, kWarning), 0u) << o.err;
}

TEST(HsaToolRequest, TheUsersOwnValueComesBack) {
  const Outcome o = InChild("user_value", []() -> int {
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
    if (!StartUnnamed(p)) return 4;
    const char* after = std::getenv("HSA_TOOLS_LIB");
    if (after == nullptr || std::string(after) != "libno_such_tool.so") {
      return 5;
    }
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, ConfiguredAfterHsaInitWarnsOnce) {
  const Outcome o = InChild("after_init", []() -> int {
    unsetenv("HSA_TOOLS_LIB");
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 4;
    g_kinds = 2;  // two GPU kinds configured: still one warning
    if (!ConfigureTool()) return 2;
    // Too late to ask: the variable is left alone.
    if (std::getenv("HSA_TOOLS_LIB") != nullptr) return 3;
    return DispatchAndStop(p, 0);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(Occurrences(o.err, kWarning), 1u) << o.err;
  EXPECT_NE(o.err.find("HSA_TOOLS_LIB=librocprofiler-sdk.so.1"),
            std::string::npos)
      << o.err;
}

// A runtime that loads the tracer but hands it a table of an unknown major
// version: the table is refused, and HSA_TOOLS_LIB is the user's again (no
// child process loads the tracer for nothing).
TEST(HsaToolRequest, ARefusedTableGivesTheVariableBack) {
  const Outcome o = InChild("refused", []() -> int {
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
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, TheTracerNamedTwiceIsLoadedOnce) {
  const Outcome o = InChild("named_twice", []() -> int {
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
    if (!StartUnnamed(p)) return 4;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, AnotherFileUnderTheTracersNameIsNotTheTracer) {
  const Outcome o = InChild("other_file", []() -> int {
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
    if (!StartUnnamed(p)) return 4;
    // ... and gets its dispatches.
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, OptedOutTheRuntimeIsLeftAlone) {
  const Outcome o = InChild("opted_out", []() -> int {
    unsetenv("HSA_TOOLS_LIB");
    setenv("ROCTRACER_AUTO_HSA_TOOL", "0", 1);
    if (!ConfigureTool()) return 2;
    if (std::getenv("HSA_TOOLS_LIB") != nullptr) return 3;
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 4;
    return DispatchAndStop(p, 0);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, RoctracerHsaOpsActivityBeforeHsaInit) {
  const Outcome o = InChild("roctracer", []() -> int {
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
    if (!StartUnnamed(p)) return 4;
    if (!Unnamed(std::getenv("HSA_TOOLS_LIB"))) return 5;
    DispatchOnce(p);
    roctracer_flush_activity_expl(pool);
    const size_t dispatches =
        records.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH);
    p.Stop();
    return dispatches == 1 ? 0 : 10 + static_cast<int>(dispatches);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
  // roctracer clients are not warned.
  EXPECT_EQ(Occurrences(o.err, kWarning), 0u);
}

// The program sets HSA_TOOLS_LIB itself after the library named itself
// there: the hand-over leaves the program's value as it is.
TEST(HsaToolRequest, AValueTheProgramSetsItselfStays) {
  const Outcome o = InChild("own_value", []() -> int {
    unsetenv("HSA_TOOLS_LIB");
    if (!ConfigureTool()) return 2;
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 3;
    const std::string own = gpu_test::TracerPath() + " libno_such_tool.so";
    setenv("HSA_TOOLS_LIB", own.c_str(), 1);
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 4;
    const char* after = std::getenv("HSA_TOOLS_LIB");
    if (after == nullptr || after != own) return 5;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// How a program may be started: what each such child is given.
enum class Start {
  kForkExecv,
  kForkExecveOfACopy,
  kVforkExecv,
  kSystem,
  kPosixSpawn
};

const char* Name(Start how) {
  switch (how) {
    case Start::kForkExecv:
      return "fork + execv";
    case Start::kForkExecveOfACopy:
      return "fork + execve of a copied environment";
    case Start::kVforkExecv:
      return "vfork + execv";
    case Start::kSystem:
      return "system";
    case Start::kPosixSpawn:
      return "posix_spawn";
  }
  return "?";
}

// The HSA_TOOLS_LIB entry ("HSA_TOOLS_LIB=value") of the environment a
// program started `how` gets, "none" when it has none, "failed" when it did
// not run: the program is env(1), which prints its environment.
std::string ChildSees(Start how) {
  const std::string out = TempFile("child_env.out");
  unlink(out.c_str());
  char program[] = "/usr/bin/env";
  char* const argv[] = {program, nullptr};
  switch (how) {
    case Start::kForkExecv:
    case Start::kForkExecveOfACopy: {
      std::fflush(nullptr);
      const pid_t pid = fork();
      if (pid == 0) {
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        close(fd);
        if (how == Start::kForkExecv) {
          execv(program, argv);
        } else {
          // As a program that builds its children's environment from its
          // own (strings copied, as Python's os.environ does).
          std::vector<char*> copy;
          for (char** e = environ; *e != nullptr; ++e) {
            copy.push_back(strdup(*e));
          }
          copy.push_back(nullptr);
          execve(program, argv, copy.data());
        }
        _exit(127);
      }
      if (pid < 0 || bounded_child::Wait(pid) != 0) return "failed";
      break;
    }
    case Start::kVforkExecv: {
      // The child shares this process's memory until it execs: the exec
      // hook's filtering may not allocate there.
      const pid_t pid = vfork();
      if (pid == 0) {
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        close(fd);
        execv(program, argv);
        _exit(127);
      }
      if (pid < 0 || bounded_child::Wait(pid) != 0) return "failed";
      break;
    }
    case Start::kSystem:
      if (system(("/usr/bin/env > '" + out + "'").c_str()) != 0) {
        return "failed";
      }
      break;
    case Start::kPosixSpawn: {
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, 1, out.c_str(),
                                       O_WRONLY | O_CREAT | O_TRUNC, 0600);
      pid_t pid = 0;
      const int err =
          posix_spawn(&pid, program, &actions, nullptr, argv, environ);
      posix_spawn_file_actions_destroy(&actions);
      if (err != 0 || bounded_child::Wait(pid) != 0) return "failed";
      break;
    }
  }
  std::istringstream lines(Slurp(out));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("HSA_TOOLS_LIB=", 0) == 0) return line;
  }
  return "none";
}

// Every way of starting a program gives it `expected` (see ChildSees);
// each that does not is said on stderr.
bool ChildrenSee(const std::string& expected) {
  bool all = true;
  for (const Start how :
       {Start::kForkExecv, Start::kForkExecveOfACopy, Start::kVforkExecv,
        Start::kSystem, Start::kPosixSpawn}) {
    const std::string seen = ChildSees(how);
    if (seen != expected) {
      std::fprintf(stderr, "%s: the child saw %s, not %s\n", Name(how),
                   seen.c_str(), expected.c_str());
      all = false;
    }
  }
  return all;
}

// A program started while the library keeps an HSA_TOOLS_LIB entry of its
// own (the empty one it adds at load, its name from the request to the
// hand-over and again after hsa_shut_down) gets the environment the user
// gave the process: here, none.
TEST(HsaToolRequest, ChildrenGetNoVariableWhereTheUserHadNone) {
  const Outcome o = InChild("children_none", []() -> int {
    if (!ChildrenSee("none")) return 2;  // the empty entry added at load
    if (!ConfigureTool()) return 3;
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 4;
    if (!ChildrenSee("none")) return 5;  // requested
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 6;
    if (!ChildrenSee("none")) return 7;  // handed over
    p.Stop();
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 8;
    if (!ChildrenSee("none")) return 9;  // named again after hsa_shut_down
    // ... and the next hsa_init still loads the tracer (DispatchAndStop
    // answers 10 and more).
    if (!StartUnnamed(p)) return 30;
    return DispatchAndStop(p, 1);
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// The same with the user's own value: children get it as the user set it;
// a value the program sets itself while the tracer is named is passed on.
TEST(HsaToolRequest, ChildrenGetTheUsersValue) {
  const Outcome o = InChild("children_user", []() -> int {
    setenv("HSA_TOOLS_LIB", "libno_such_tool.so", 1);
    const std::string user = "HSA_TOOLS_LIB=libno_such_tool.so";
    if (!ConfigureTool()) return 2;
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 3;
    if (!ChildrenSee(user)) return 4;
    gpu_test::Program p;
    if (!StartUnnamed(p)) return 5;
    if (!ChildrenSee(user)) return 6;
    p.Stop();
    if (!NamesTracer(std::getenv("HSA_TOOLS_LIB"))) return 7;
    if (!ChildrenSee(user)) return 8;
    setenv("HSA_TOOLS_LIB", "libmine.so", 1);
    return ChildrenSee("HSA_TOOLS_LIB=libmine.so") ? 0 : 9;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// The program's own SIGINT handler (system() ignores SIGINT only while its
// shell runs) and the SIGINTs it received.
std::atomic<int> g_sigints{0};
void OnSigint(int) { ++g_sigints; }

void SetAction(int sig, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(sig, &action, nullptr);
}

bool ActionIs(int sig, void (*handler)(int)) {
  struct sigaction now {};
  sigaction(sig, nullptr, &now);
  return now.sa_handler == handler;
}

// Until a shell of another thread's system() runs (SIGINT ignored); false
// after about 10 s.
bool UntilAShellRuns() {
  for (int i = 0; i < 10000 && !ActionIs(SIGINT, SIG_IGN); ++i) usleep(1000);
  return ActionIs(SIGINT, SIG_IGN);
}

// system() while the environment needs filtering (the empty entry added
// at load, the user having none) runs the shell as the C library's does:
// the command's exit status or signal; the caller ignores SIGINT while the
// shell runs (a SIGINT the shell sends it is lost) and has its handler back
// after; the shell gets SIGINT's default action, and SIGQUIT ignored where
// the caller ignores it; a shell reported as there for a null command.
TEST(HsaToolRequest, SystemWithTheFilteredEnvironmentKeepsItsMeaning) {
  const Outcome o = InChild("system", []() -> int {
    SetAction(SIGINT, &OnSigint);
    SetAction(SIGQUIT, SIG_IGN);
    if (ChildSees(Start::kSystem) != "none") return 2;  // the filter applies
    if (system(nullptr) == 0) return 3;
    const int exited = system("exit 3");
    if (!WIFEXITED(exited) || WEXITSTATUS(exited) != 3) return 4;
    const int killed = system("kill -TERM $$");
    if (!WIFSIGNALED(killed) || WTERMSIG(killed) != SIGTERM) return 5;
    const int interrupted = system("kill -INT $$");
    if (!WIFSIGNALED(interrupted) || WTERMSIG(interrupted) != SIGINT) {
      return 6;
    }
    const int quit_ignored = system("kill -QUIT $$; exit 5");
    if (!WIFEXITED(quit_ignored) || WEXITSTATUS(quit_ignored) != 5) return 7;
    const int caller = system("kill -INT $PPID");
    if (!WIFEXITED(caller) || WEXITSTATUS(caller) != 0) return 8;
    if (g_sigints.load() != 0) return 9;  // ignored while the shell ran
    if (!ActionIs(SIGINT, &OnSigint)) return 10;
    if (!ActionIs(SIGQUIT, SIG_IGN)) return 11;
    raise(SIGINT);  // the handler is the program's again
    return g_sigints.load() == 1 ? 0 : 12;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// A shell that cannot start (here an environment string longer than
// execve takes) is reported as the C library reports it: as a shell that
// exited with 127.
TEST(HsaToolRequest, SystemWhoseShellCannotStartAnswers127) {
  const Outcome o = InChild("system_127", []() -> int {
    setenv("TOO_LONG_FOR_EXECVE", std::string(256 * 1024, 'x').c_str(), 1);
    const int status = system("exit 0");
    return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? 0 : 2;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// The shell's argv is the running C library's (glibc 2.36 runs
// "sh -c COMMAND", 2.38 and later "sh -c -- COMMAND"): a command starting
// with '-' ends as it does through the C library's own system(), here
// reached through a pointer from dlsym, which the hooks do not replace.
TEST(HsaToolRequest, SystemRunsTheShellWithTheCLibrarysArguments) {
  const Outcome o = InChild("system_argv", []() -> int {
    using SystemFn = int (*)(const char*);
    const auto libc_system =
        reinterpret_cast<SystemFn>(dlsym(RTLD_DEFAULT, "system"));
    if (libc_system == nullptr) return 2;
    for (const char* command : {"-e", "-v exit 4", "exit 4"}) {
      const int hooked = system(command);
      const int libc = libc_system(command);
      if (hooked != libc) {
        std::fprintf(stderr, "system(\"%s\"): %#x, the C library's %#x\n",
                     command, hooked, libc);
        return 3;
      }
    }
    return 0;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// Concurrent calls: SIGINT stays ignored until the last shell ends, and the
// program's handler comes back then, also when the calls are null commands
// (which once went to the C library's system(), whose count of running
// shells is its own: it saved the ignored action as the program's).
TEST(HsaToolRequest, ConcurrentSystemCallsPutTheHandlerBack) {
  const Outcome o = InChild("system_concurrent", []() -> int {
    SetAction(SIGINT, &OnSigint);
    int longer = -1;
    std::thread other([&longer] { longer = system("sleep 1"); });
    if (!UntilAShellRuns()) return 2;
    const int shorter = system("exit 0");
    const bool still_ignored = ActionIs(SIGINT, SIG_IGN);
    other.join();
    if (shorter != 0 || longer != 0) return 3;
    if (!still_ignored) return 4;  // the other shell was still running
    if (!ActionIs(SIGINT, &OnSigint)) return 5;

    std::atomic<bool> stop{false};
    std::atomic<int> no_shell{0};
    std::thread asking([&] {
      while (!stop.load()) {
        if (system(nullptr) == 0) ++no_shell;
      }
    });
    for (int i = 0; i < 20; ++i) {
      if (system("exit 0") != 0) return 6;
    }
    stop = true;
    asking.join();
    if (no_shell.load() != 0) return 7;
    return ActionIs(SIGINT, &OnSigint) ? 0 : 8;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// A fork while another thread's shell runs: the child runs no shell, so it
// has the program's SIGINT handler, and keeps it through its own system().
TEST(HsaToolRequest, AChildForkedWhileAShellRunsHasTheHandler) {
  const Outcome o = InChild("system_fork", []() -> int {
    SetAction(SIGINT, &OnSigint);
    int status = -1;
    std::thread other([&status] { status = system("sleep 0.5"); });
    if (!UntilAShellRuns()) return 2;
    const pid_t pid = fork();
    if (pid == 0) {
      if (!ActionIs(SIGINT, &OnSigint)) _exit(3);
      if (system("exit 0") != 0) _exit(4);
      _exit(ActionIs(SIGINT, &OnSigint) ? 0 : 5);
    }
    const int child = pid > 0 ? bounded_child::Wait(pid) : 6;
    other.join();
    if (child != 0) return child;
    if (status != 0) return 7;
    return ActionIs(SIGINT, &OnSigint) ? 0 : 8;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// A thread cancelled while it waits for its shell: the shell is killed
// and reaped (as the C library's system() does), and the program's handler
// is back.
TEST(HsaToolRequest, ACancelledSystemCallKillsItsShell) {
  const Outcome o = InChild("system_cancel", []() -> int {
    SetAction(SIGINT, &OnSigint);
    static std::string pid_file;
    pid_file = TempFile("system_cancel.pid");
    unlink(pid_file.c_str());
    pthread_t waiting{};
    pthread_create(
        &waiting, nullptr,
        [](void*) -> void* {
          const int status =
              system(("echo $$ > '" + pid_file + "'; exec sleep 30").c_str());
          (void)status;  // not reached: the thread is cancelled
          return nullptr;
        },
        nullptr);
    pid_t shell = 0;
    for (int i = 0; i < 10000 && shell <= 0; ++i) {
      usleep(1000);
      std::ifstream in(pid_file);
      in >> shell;
    }
    if (shell <= 0) return 2;
    pthread_cancel(waiting);
    pthread_join(waiting, nullptr);
    if (kill(shell, 0) == 0 || errno != ESRCH) return 3;  // reaped
    return ActionIs(SIGINT, &OnSigint) ? 0 : 4;
  });
  EXPECT_EQ(o.rc, 0) << o.err;
}

// The library's file found by the loader as `dir`/libroctracer64.so.4: the
// test binary started again (LD_LIBRARY_PATH=`dir`), configuring the tool
// before main (OddPathScenario). 0 when the library named itself
// `expected` in HSA_TOOLS_LIB and the runtime loaded it by that word.
Outcome LoadedFrom(const std::string& dir, bool copy,
                   const std::string& expected) {
  mkdir(dir.c_str(), 0700);
  const std::string file = dir + "/libroctracer64.so.4";
  unlink(file.c_str());
  char real[PATH_MAX];
  if (realpath(gpu_test::TracerPath().c_str(), real) == nullptr) {
    return {-1, "no tracer file"};
  }
  if (copy) {
    std::ifstream in(real, std::ios::binary);
    std::ofstream out(file, std::ios::binary);
    out << in.rdbuf();
  } else if (symlink(real, file.c_str()) != 0) {
    return {-1, "no symlink"};
  }
  static std::string s_dir, s_expected;
  s_dir = dir;
  s_expected = expected;
  return InChild("odd_path", []() -> int {
    setenv("LD_LIBRARY_PATH", s_dir.c_str(), 1);
    setenv("HSA_TOOL_REQUEST_EXPECT", s_expected.c_str(), 1);
    execl("/proc/self/exe", "hsa_tool_request_test", nullptr);
    return 127;
  });
}

std::string RealTracerPath() {
  char real[PATH_MAX];
  return realpath(gpu_test::TracerPath().c_str(), real) != nullptr ? real : "";
}

// ROCR splits HSA_TOOLS_LIB on white space and reads quotes and
// backslashes: a library whose path has any of them names itself by its
// soname, which the runtime's dlopen finds among the loaded objects.
TEST(HsaToolRequest, APathWithASpaceIsNamedByTheSoname) {
  const Outcome o =
      LoadedFrom(TempFile("odd dir"), true, "libroctracer64.so.4");
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(HsaToolRequest, APathWithAQuoteIsNamedByTheSoname) {
  const Outcome o =
      LoadedFrom(TempFile("odd'dir"), true, "libroctracer64.so.4");
  EXPECT_EQ(o.rc, 0) << o.err;
}

// Loaded through a symlink in such a directory: the file it resolves to,
// whose path is plain, is named (absolute, so a program that changes
// directory still finds it).
TEST(HsaToolRequest, ASymlinkIsNamedByTheFileItResolvesTo) {
  const Outcome o = LoadedFrom(TempFile("link dir"), false, RealTracerPath());
  EXPECT_EQ(o.rc, 0) << o.err;
}

// The test binary started again by LoadedFrom: the tool configured before
// hsa_init, with the tracer found where the loader was told.
int OddPathScenario(const std::string& expected) {
  Dl_info info{};
  const char* dir = std::getenv("LD_LIBRARY_PATH");
  void* on_load = dlsym(RTLD_DEFAULT, "OnLoad");
  if (dir == nullptr || on_load == nullptr || dladdr(on_load, &info) == 0 ||
      std::string(info.dli_fname).rfind(dir, 0) != 0) {
    std::fprintf(stderr, "the tracer was not loaded from %s\n", dir);
    return 2;
  }
  if (!ConfigureTool()) return 3;
  const char* named = std::getenv("HSA_TOOLS_LIB");
  if (named == nullptr || named != expected) {
    std::fprintf(stderr, "HSA_TOOLS_LIB=%s, not %s\n",
                 named != nullptr ? named : "(none)", expected.c_str());
    return 4;
  }
  gpu_test::Program p;
  if (!StartUnnamed(p)) return 5;
  return DispatchAndStop(p, 1);
}

// Before main, in the binary LoadedFrom started.
[[maybe_unused]] const int g_odd_path_run = [] {
  const char* expected = std::getenv("HSA_TOOL_REQUEST_EXPECT");
  if (expected != nullptr) std::exit(OddPathScenario(expected));
  return 0;
}();

}  // namespace
