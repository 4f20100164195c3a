// Drives PyTorch's Kineto (libkineto, built for ROCm's rocprofiler-sdk
// backend) as PyTorch does: libkineto_init, prepareTrace, startTrace around
// HIP work (libkineto_work.so), stopTrace. Prints every activity Kineto
// collected, one line each, tab-separated:
//   activity TYPE CORRELATION START_NS DURATION_NS DEVICE RESOURCE NAME
// and saves Kineto's chrome trace to argv[1]; then traces twice more (below).
// Exit 0 when the work and the traces ran; the checking is
// tools/kineto/check_kineto_trace.py's.
#include <libkineto.h>

#include <cstdio>
#include <set>
#include <string>

extern "C" int kineto_work_run();
extern "C" int kineto_work_warm_up();

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TRACE.json\n", argv[0]);
    return 2;
  }
  if (kineto_work_warm_up() != 0) {
    fprintf(stderr, "kineto_driver: HIP warm-up failed\n");
    return 1;
  }
  libkineto_init(/*cpuOnly=*/false, /*logOnError=*/true);
  libkineto::api().initProfilerIfRegistered();
  auto& profiler = libkineto::api().activityProfiler();
  std::set<libkineto::ActivityType> types = {
      libkineto::ActivityType::CUDA_RUNTIME,
      libkineto::ActivityType::CONCURRENT_KERNEL,
      libkineto::ActivityType::GPU_MEMCPY,
  };
  profiler.prepareTrace(types);
  profiler.startTrace();
  int work = kineto_work_run();
  auto trace = profiler.stopTrace();
  if (work != 0) {
    fprintf(stderr, "kineto_driver: the HIP work failed\n");
    return 1;
  }
  if (!trace || !trace->activities()) {
    fprintf(stderr, "kineto_driver: no trace\n");
    return 1;
  }
  for (const auto* a : *trace->activities()) {
    printf("activity\t%s\t%lld\t%lld\t%lld\t%lld\t%lld\t%s\n",
           libkineto::toString(a->type()),
           static_cast<long long>(a->correlationId()),
           static_cast<long long>(a->timestamp()),
           static_cast<long long>(a->duration()),
           static_cast<long long>(a->deviceId()),
           static_cast<long long>(a->resourceId()), a->name().c_str());
  }
  trace->save(argv[1]);
  printf("saved %s\n", argv[1]);

  // PyTorch profiles again in the same process: two more traces (the work
  // twice, then once), with untraced work before each. Each must hold its
  // own work only:
  //   round N TIMES runtime R kernels K copies C
  for (int round = 1; round <= 2; ++round) {
    if (kineto_work_run() != 0) return 1;  // untraced
    const int times = round == 1 ? 2 : 1;
    profiler.prepareTrace(types);
    profiler.startTrace();
    for (int i = 0; i < times; ++i) {
      if (kineto_work_run() != 0) return 1;
    }
    auto again = profiler.stopTrace();
    if (!again || !again->activities()) return 1;
    int runtime = 0, kernels = 0, copies = 0;
    for (const auto* a : *again->activities()) {
      if (a->type() == libkineto::ActivityType::CONCURRENT_KERNEL) {
        ++kernels;
      } else if (a->type() == libkineto::ActivityType::GPU_MEMCPY) {
        ++copies;
      } else if (a->type() == libkineto::ActivityType::CUDA_RUNTIME) {
        ++runtime;
      }
    }
    printf("round %d %d runtime %d kernels %d copies %d\n", round, times,
           runtime, kernels, copies);
  }
  return 0;
}
