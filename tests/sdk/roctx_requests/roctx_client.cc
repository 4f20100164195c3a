// An application using rocprofiler-sdk-roctx's additions and roctracer's
// rocTX callbacks, built with the system compiler's default flags. Prints
// "APP ..." lines the test script checks.
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

#include "rocprofiler-sdk-roctx/roctx.h"

static int g_marks = 0;

static void OnRoctx(uint32_t, uint32_t op, const void*, void*) {
  if (op == ROCTX_API_ID_roctxMarkA) ++g_marks;
}

int main() {
  if (roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX, OnRoctx,
                                       nullptr) != ROCTRACER_STATUS_SUCCESS) {
    std::printf("APP enable failed\n");
    return 1;
  }
  roctxMarkA("before");
  std::printf("APP pause=%d\n", roctxProfilerPause(0));
  roctxMarkA("paused");
  std::printf("APP marks_while_paused=%d\n", g_marks);
  std::printf("APP resume=%d\n", roctxProfilerResume(0));
  roctxMarkA("after");
  std::printf("APP marks=%d\n", g_marks);

  std::printf("APP name_thread=%d\n", roctxNameOsThread("main-thread"));
  std::printf("APP name_device=%d\n", roctxNameHipDevice("gpu-three", 3));
  std::printf(
      "APP name_stream=%d\n",
      roctxNameHipStream("copy-stream",
                         reinterpret_cast<const ihipStream_t*>(0x1234)));
  std::printf("APP name_agent=%d\n",
              roctxNameHsaAgent("agent-x",
                                reinterpret_cast<const hsa_agent_s*>(0x5678)));
  roctx_thread_id_t tid = 0;
  const int rc = roctxGetThreadId(&tid);
  std::printf("APP get_thread_id=%d matches_gettid=%d\n", rc,
              tid == static_cast<roctx_thread_id_t>(syscall(SYS_gettid)));
  // Bad input: refused, nothing reported, no crash.
  std::printf("APP null_name=%d null_tid=%d\n", roctxNameOsThread(nullptr) != 0,
              roctxGetThreadId(nullptr) != 0);
  return 0;
}
