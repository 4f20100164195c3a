/* A client of librocprofiler-sdk-roctx.so.1 as rocprofiler-sdk's programs
 * use it: <rocprofiler-sdk-roctx/roctx.h> only, linked with
 * -lrocprofiler-sdk-roctx. Every call must land in libroctx64.so.4 (the
 * library is an ELF filter of it) and answer as rocTX does. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rocprofiler-sdk-roctx/roctx.h>

static int failures = 0;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "sdk_roctx_client: %s\n", what);
    ++failures;
  }
}

int main(void) {
  /* The definitions the program's calls bind to are libroctx64.so.4's. */
  const char* names[] = {"roctxMarkA", "roctxRangePushA", "roctxGetThreadId",
                         "roctxNameOsThread"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    void* fn = dlsym(RTLD_DEFAULT, names[i]);
    Dl_info info;
    check(fn != NULL && dladdr(fn, &info) != 0 && info.dli_fname != NULL &&
              strstr(info.dli_fname, "libroctx64.so.4") != NULL,
          names[i]);
  }
  roctxMarkA("mark");
  const int outer = roctxRangePushA("outer");
  const int inner = roctxRangePushA("inner");
  check(outer >= 0 && inner == outer + 1, "push nesting levels");
  check(roctxRangePop() == inner, "pop inner");
  check(roctxRangePop() == outer, "pop outer");
  const roctx_range_id_t id = roctxRangeStartA("range");
  check(id != 0, "range id");
  roctxRangeStop(id);
  roctx_thread_id_t tid = 0;
  check(roctxGetThreadId(&tid) == 0 && tid == (roctx_thread_id_t)syscall(SYS_gettid),
        "thread id");
  check(roctxNameOsThread("main") == 0, "name thread");
  printf("sdk_roctx_client: %d failures\n", failures);
  return failures != 0;
}
