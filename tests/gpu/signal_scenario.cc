// An HSA program whose signals are observed: what its waiters see (values,
// wake-ups and their order) is printed on stdout, so the same scenario run
// with and without the tracer can be compared line for line
// (signals_test.py). With TRACE=1 it enables HSA_OPS activity in the tracer
// the runtime loaded as its tool (found with dlopen RTLD_NOLOAD, the program
// does not link it) and prints the record counts on stderr.
//   signal_scenario KERNELS TRACER scenario   the comparison scenario
//   signal_scenario KERNELS TRACER exit       submits a 50 ms kernel and
//                                              returns from main at once
#include <dlfcn.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hsa.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

namespace {

std::mutex g_log_mutex;
void Log(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void Log(const char* fmt, ...) {
  std::lock_guard<std::mutex> lock(g_log_mutex);
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
}

std::atomic<uint64_t> g_records[4];
bool g_print_records = false;

void OnRecords(const char* begin, const char* end, void*) {
  for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
       r < reinterpret_cast<const activity_record_t*>(end); ++r) {
    if (r->domain != ACTIVITY_DOMAIN_HSA_OPS || r->op > 3) continue;
    g_records[r->op]++;
    if (g_print_records) {
      printf("record op=%u name=%s ordered=%d\n", r->op,
             r->op == HSA_OP_ID_DISPATCH ? r->kernel_name : "-",
             r->begin_ns <= r->end_ns ? 1 : 0);
      fflush(stdout);
    }
  }
}

template <class Fn>
Fn Sym(void* lib, const char* name) {
  return reinterpret_cast<Fn>(dlsym(lib, name));
}

void* g_tracer = nullptr;
roctracer_pool_t* g_pool = nullptr;

void StartTracing(const char* tracer) {
  g_tracer = dlopen(tracer, RTLD_NOW | RTLD_NOLOAD);
  if (g_tracer == nullptr) {
    fprintf(stderr, "tracer not loaded as a tool\n");
    exit(2);
  }
  roctracer_properties_t props{};
  props.buffer_size = 1 << 14;
  props.buffer_callback_fun = &OnRecords;
  Sym<decltype(&roctracer_open_pool_expl)>(
      g_tracer, "roctracer_open_pool_expl")(&props, &g_pool);
  Sym<decltype(&roctracer_enable_domain_activity_expl)>(
      g_tracer, "roctracer_enable_domain_activity_expl")(
      ACTIVITY_DOMAIN_HSA_OPS, g_pool);
}

void ReportTracing() {
  if (g_tracer == nullptr) return;
  Sym<decltype(&roctracer_flush_activity_expl)>(
      g_tracer, "roctracer_flush_activity_expl")(g_pool);
  roctracer_gpu_activity_stats_t s{};
  Sym<decltype(&roctracer_get_gpu_activity_stats_expl)>(
      g_tracer, "roctracer_get_gpu_activity_stats_expl")(&s);
  fprintf(stderr,
          "records dispatch=%lu barrier=%lu copy=%lu incomplete=%lu "
          "failed_copies=%lu untraced=%lu\n",
          (unsigned long)g_records[0].load(),
          (unsigned long)g_records[2].load(),
          (unsigned long)g_records[1].load(), (unsigned long)s.incomplete,
          (unsigned long)s.failed_copies, (unsigned long)s.untraced);
}

struct Kernels {
  hsa_agent_t gpu, cpu;
  hsa_test::Loaded loaded;
  uint64_t stamp;
  uint64_t* args;  // kernarg: {out pointer}, out at args + 8
};

// A dispatch of `stamp` spinning `spin_ns`.
void Spin(hsa_queue_t* q, Kernels& k, int slot, uint64_t spin_ns,
          hsa_signal_t s) {
  uint64_t* kernarg = k.args + slot * 16;
  uint64_t* out = kernarg + 8;
  kernarg[0] = reinterpret_cast<uint64_t>(out);
  out[2] = spin_ns;
  hsa_kernel_dispatch_packet_t p =
      hsa_test::DispatchPacket(k.stamp, kernarg, 1, 1, s);
  hsa_test::Submit(q, &p);
}

void Barrier(hsa_queue_t* q, hsa_packet_type_t type,
             std::vector<hsa_signal_t> deps, hsa_signal_t s) {
  hsa_barrier_and_packet_t b{};
  b.header = hsa_test::Header(type);
  for (size_t i = 0; i < deps.size(); ++i) b.dep_signal[i] = deps[i];
  b.completion_signal = s;
  hsa_test::Submit(q, &b);
}

hsa_signal_t Signal(hsa_signal_value_t v) {
  hsa_signal_t s;
  hsa_signal_create(v, 0, nullptr, &s);
  return s;
}

// A thread that waits for `s` to drop below 1; what it saw when it woke
// (the value, the values of `also`, its place among the wake-ups counted by
// `order`) goes to `*seen`, printed by the main thread in a fixed order.
std::thread Waiter(const char* name, hsa_signal_t s, std::string* seen,
                   std::vector<hsa_signal_t> also = {},
                   std::atomic<int>* order = nullptr) {
  return std::thread([=] {
    hsa_signal_value_t v = hsa_signal_wait_scacquire(
        s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    char line[160];
    int n = snprintf(line, sizeof(line), "woke %s value=%ld", name,
                     static_cast<long>(v));
    for (hsa_signal_t a : also) {
      n += snprintf(line + n, sizeof(line) - n, " dep=%ld",
                    static_cast<long>(hsa_signal_load_scacquire(a)));
    }
    if (order != nullptr) {
      snprintf(line + n, sizeof(line) - n, " #%d", ++*order);
    }
    *seen = line;
  });
}

std::atomic<int> g_queue_errors{0};
hsa_queue_t* g_error_queue = nullptr;
void OnQueueError(hsa_status_t status, hsa_queue_t* q, void*) {
  Log("queue error 0x%x on the application's queue: %d", status,
      q == g_error_queue ? 1 : 0);
  g_queue_errors++;
}

int Scenario(Kernels& k) {
  hsa_queue_t* q[3];
  for (auto& x : q) {
    hsa_queue_create(k.gpu, 256, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0,
                     &x);
  }
  Log("queue ids %lu %lu %lu", (unsigned long)q[0]->id, (unsigned long)q[1]->id,
      (unsigned long)q[2]->id);
  // 1. A chain across queues: a kernel on q1, a barrier-AND on q2 waiting
  // for it, a barrier-OR on q0 waiting for the barrier or a signal that
  // never moves. Wake-ups in dependency order, every value 0. (q0 is the
  // one SOFTHSA_FAULTS delays.)
  hsa_signal_t s1 = Signal(1), s2 = Signal(1), s3 = Signal(1),
               never = Signal(1);
  {
    std::string seen[3];
    std::thread w3 = Waiter("or-barrier", s3, &seen[2], {s2, never});
    std::thread w2 = Waiter("and-barrier", s2, &seen[1], {s1});
    std::thread w1 = Waiter("kernel", s1, &seen[0]);
    Barrier(q[0], HSA_PACKET_TYPE_BARRIER_OR, {never, s2}, s3);
    Barrier(q[2], HSA_PACKET_TYPE_BARRIER_AND, {s1}, s2);
    Spin(q[1], k, 0, 5'000'000, s1);
    w1.join();
    w2.join();
    w3.join();
    for (const std::string& line : seen) Log("%s", line.c_str());
  }
  Log("values %ld %ld %ld %ld", (long)hsa_signal_load_scacquire(s1),
      (long)hsa_signal_load_scacquire(s2), (long)hsa_signal_load_scacquire(s3),
      (long)hsa_signal_load_scacquire(never));
  // 2. One signal, several operations and waiters: each completion takes one
  // off; three waiters on 0 all wake.
  hsa_signal_t many = Signal(6);
  {
    std::string seen[3];
    std::thread a = Waiter("many-a", many, &seen[0]),
                b = Waiter("many-b", many, &seen[1]),
                c = Waiter("many-c", many, &seen[2]);
    for (int i = 0; i < 4; ++i) Spin(q[1], k, 1 + i, 100'000, many);
    std::vector<uint8_t> src(4096, 7), dst(4096, 0);
    for (int i = 0; i < 2; ++i) {
      hsa_amd_memory_async_copy(dst.data(), k.gpu, src.data(), k.cpu,
                                src.size(), 0, nullptr, many);
    }
    a.join();
    b.join();
    c.join();
    for (const std::string& line : seen) Log("%s", line.c_str());
    Log("copied %d", dst[4095]);
  }
  Log("many %ld", (long)hsa_signal_load_scacquire(many));
  // 3. Out of order across queues: q0's completions are late
  // (queue_delay), so q1's later kernel completes first.
  hsa_signal_t early = Signal(1), late = Signal(1);
  {
    std::atomic<int> order{0};
    std::string seen[2];
    std::thread wl = Waiter("q0-first-submitted", late, &seen[0], {}, &order);
    Spin(q[0], k, 6, 0, late);
    std::thread we = Waiter("q1-second-submitted", early, &seen[1], {}, &order);
    Spin(q[1], k, 7, 0, early);
    we.join();
    wl.join();
    for (const std::string& line : seen) Log("%s", line.c_str());
  }
  // 4. A copy that fails (copy_error=3, the third copy): the runtime stores
  // -1 in its signal. A copy waiting on a dependency starts after it.
  hsa_signal_t failed = Signal(1), dep = Signal(1), after = Signal(1);
  {
    uint64_t a = 1, b = 0, c = 5, d = 0;
    hsa_amd_memory_async_copy(&b, k.gpu, &a, k.cpu, sizeof(a), 0, nullptr,
                              failed);
    std::string seen;
    std::thread wa = Waiter("dependent-copy", after, &seen);
    hsa_amd_memory_async_copy(&d, k.cpu, &c, k.gpu, sizeof(c), 1, &dep, after);
    Log("dependent copy waits: %ld", (long)hsa_signal_load_scacquire(after));
    Log("failed copy: %ld, copied %lu",
        (long)hsa_signal_wait_scacquire(failed, HSA_SIGNAL_CONDITION_LT, 1,
                                        UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
        (unsigned long)b);
    hsa_signal_store_screlease(dep, 0);
    wa.join();
    Log("%s", seen.c_str());
    Log("dependent copy copied %lu", (unsigned long)d);
  }
  // 5. A dispatch that fails (dispatch_error=8, the 8th dispatch): the queue's
  // error callback gets the application's queue, the signal never moves.
  hsa_queue_t* bad = nullptr;
  hsa_queue_create(k.gpu, 64, HSA_QUEUE_TYPE_MULTI, &OnQueueError, nullptr, 0,
                   0, &bad);
  g_error_queue = bad;
  hsa_signal_t stuck = Signal(1);
  Spin(bad, k, 8, 0, stuck);
  Log("failed dispatch signal after 50 ms: %ld",
      (long)hsa_signal_wait_scacquire(stuck, HSA_SIGNAL_CONDITION_LT, 1,
                                      5'000'000, HSA_WAIT_STATE_BLOCKED));
  while (g_queue_errors.load() == 0) std::this_thread::yield();
  ReportTracing();
  hsa_queue_destroy(bad);
  for (auto* x : q) hsa_queue_destroy(x);
  for (hsa_signal_t s :
       {s1, s2, s3, never, many, early, late, failed, dep, after, stuck}) {
    hsa_signal_destroy(s);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const bool trace = getenv("TRACE") != nullptr;
  if (hsa_init() != HSA_STATUS_SUCCESS) return 3;
  if (trace) StartTracing(argv[2]);
  Kernels k{};
  k.gpu = hsa_test::Agents(HSA_DEVICE_TYPE_GPU)[0];
  k.cpu = hsa_test::Agents(HSA_DEVICE_TYPE_CPU)[0];
  if (hsa_test::LoadFile(argv[1], k.gpu, &k.loaded) != HSA_STATUS_SUCCESS) {
    return 4;
  }
  k.stamp = hsa_test::KernelObject(k.loaded.executable, k.gpu, "stamp");
  void* args = nullptr;
  hsa_amd_memory_pool_allocate(hsa_test::KernargPool(), 1 << 16, 0, &args);
  k.args = static_cast<uint64_t*>(args);
  if (strcmp(argv[3], "exit") == 0) {
    // Returns with the kernel still running: the tracer's exit path waits
    // for it and the pool is closed (and delivered) at exit.
    g_print_records = true;
    hsa_queue_t* q;
    hsa_queue_create(k.gpu, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0,
                     &q);
    hsa_signal_t s = Signal(1);
    Spin(q, k, 0, 50'000'000, s);
    printf("returning from main\n");
    fflush(stdout);
    return 0;
  }
  return Scenario(k);
}
