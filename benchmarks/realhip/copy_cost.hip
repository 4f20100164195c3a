// A fixed number of 64-byte hipMemcpyAsync copies (a stream synchronisation
// every 64), untraced ("off") or traced ("traced": HIP_API, HIP_OPS and
// HSA_OPS activity into a pool whose callback does nothing), with what every
// thread of the process spent on them: the figures count_copy_cost.py turns
// into the tracer's added cost per copy. For each thread, between the start
// and the end of the copy loop: CPU time (/proc/self/task/*/schedstat),
// voluntary and involuntary context switches; under callgrind the loop alone
// is instrumented (--collect-atstart=no). The loop's CLOCK_MONOTONIC bounds
// are printed so that system calls recorded by `perf record -k
// CLOCK_MONOTONIC` can be cut to it.
//
// Usage: copy_cost off|traced COPIES
#include <dirent.h>
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

// The loop alone instrumented under callgrind; nothing without valgrind.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

namespace {

struct Properties {  // roctracer_properties_t, by its C layout
  uint32_t mode;
  size_t buffer_size;
  void* alloc_fun;
  void* alloc_arg;
  void (*buffer_callback_fun)(const char*, const char*, void*);
  void* buffer_callback_arg;
};
void Ignore(const char*, const char*, void*) {}

// Enables HIP_API, HIP_OPS and HSA_OPS activity; false without the tracer.
bool Trace() {
  void* lib = dlopen("libroctracer64.so.4", RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) return false;
  auto open = reinterpret_cast<int (*)(const Properties*, void**)>(
      dlsym(lib, "roctracer_open_pool_expl"));
  auto enable = reinterpret_cast<int (*)(uint32_t, void*)>(
      dlsym(lib, "roctracer_enable_domain_activity_expl"));
  Properties p{};
  p.buffer_size = 1 << 20;
  p.buffer_callback_fun = &Ignore;
  void* pool = nullptr;
  if (open == nullptr || enable == nullptr || open(&p, &pool) != 0) {
    return false;
  }
  for (uint32_t domain : {3u /*HIP_API*/, 2u /*HIP_OPS*/, 1u /*HSA_OPS*/}) {
    if (enable(domain, pool) != 0) return false;
  }
  return true;
}

struct ThreadCost {
  std::string name;
  uint64_t cpu_ns = 0, voluntary = 0, involuntary = 0;
};

std::string Read(const std::string& path) {
  std::string text;
  if (FILE* f = fopen(path.c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0) text.append(buffer, n);
    fclose(f);
  }
  return text;
}

uint64_t Field(const std::string& status, const char* key) {
  const size_t at = status.find(key);
  return at == std::string::npos ? 0
                                 : strtoull(status.c_str() + at + strlen(key),
                                            nullptr, 10);
}

std::map<int, ThreadCost> Snapshot() {
  std::map<int, ThreadCost> threads;
  DIR* dir = opendir("/proc/self/task");
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const std::string task = std::string("/proc/self/task/") + e->d_name;
    ThreadCost& t = threads[atoi(e->d_name)];
    t.name = Read(task + "/comm");
    if (!t.name.empty() && t.name.back() == '\n') t.name.pop_back();
    t.cpu_ns = strtoull(Read(task + "/schedstat").c_str(), nullptr, 10);
    const std::string status = Read(task + "/status");
    t.voluntary = Field(status, "voluntary_ctxt_switches:");
    t.involuntary = Field(status, "nonvoluntary_ctxt_switches:");
  }
  closedir(dir);
  return threads;
}

uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + ts.tv_nsec;
}

#define CHECK(call)                          \
  do {                                       \
    if ((call) != hipSuccess) {              \
      fprintf(stderr, "%s failed\n", #call); \
      abort();                               \
    }                                        \
  } while (0)

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "off") != 0 &&
                    strcmp(argv[1], "traced") != 0)) {
    fprintf(stderr, "usage: %s off|traced COPIES\n", argv[0]);
    return 2;
  }
  const bool traced = strcmp(argv[1], "traced") == 0;
  const long copies = atol(argv[2]);
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  void *host, *device;
  CHECK(hipHostMalloc(&host, 64));
  CHECK(hipMalloc(&device, 64));
  if (traced && !Trace()) {
    fprintf(stderr, "the tracer is not loaded\n");
    return 1;
  }
  // Warm-up: HIP's signals and the threads exist, and every slot of the
  // tracer's copy ring (8192) has had its signal created: the loop measures
  // the steady state.
  for (int i = 0; i < 8192 + 512; ++i) {
    CHECK(hipMemcpyAsync(device, host, 64, hipMemcpyHostToDevice, stream));
    if ((i + 1) % 64 == 0) CHECK(hipStreamSynchronize(stream));
  }
  CHECK(hipStreamSynchronize(stream));
  const std::map<int, ThreadCost> before = Snapshot();
  const uint64_t begin_ns = MonotonicNs();
  CALLGRIND_START_INSTRUMENTATION;
  for (long i = 0; i < copies; ++i) {
    CHECK(hipMemcpyAsync(device, host, 64, hipMemcpyHostToDevice, stream));
    if ((i + 1) % 64 == 0) CHECK(hipStreamSynchronize(stream));
  }
  CHECK(hipStreamSynchronize(stream));
  CALLGRIND_STOP_INSTRUMENTATION;
  const uint64_t end_ns = MonotonicNs();
  const std::map<int, ThreadCost> after = Snapshot();
  printf("loop %s %ld %llu %llu\n", argv[1], copies,
         static_cast<unsigned long long>(begin_ns),
         static_cast<unsigned long long>(end_ns));
  for (const auto& entry : after) {
    const int tid = entry.first;
    const ThreadCost& t = entry.second;
    auto b = before.find(tid);
    const ThreadCost zero{};
    const ThreadCost& s = b != before.end() ? b->second : zero;
    printf("thread %d %s %llu %llu %llu\n", tid,
           tid == getpid() ? "main" : t.name.c_str(),
           static_cast<unsigned long long>(t.cpu_ns - s.cpu_ns),
           static_cast<unsigned long long>(t.voluntary - s.voluntary),
           static_cast<unsigned long long>(t.involuntary - s.involuntary));
  }
  CHECK(hipFree(device));
  CHECK(hipHostFree(host));
  CHECK(hipStreamDestroy(stream));
  return 0;
}
