// The external-ID stack still works after main returns: exit handlers and
// static destructors (a profiler flushing at exit) may push and pop, after
// the main thread's thread_local objects are gone. Exits non-zero on a wrong
// value; under AddressSanitizer a freed stack is also reported.
#include <roctracer.h>
#include <roctracer_ext.h>
#include <unistd.h>

#include <cstdio>
#include <initializer_list>

namespace {

void Expect(activity_correlation_id_t want) {
  activity_correlation_id_t got = 0;
  if (roctracer_activity_pop_external_correlation_id(&got) !=
          ROCTRACER_STATUS_SUCCESS ||
      got != want) {
    std::fprintf(stderr, "popped %llu, expected %llu\n",
                 static_cast<unsigned long long>(got),
                 static_cast<unsigned long long>(want));
    _exit(1);
  }
}

struct PopAtExit {
  ~PopAtExit() {
    Expect(33);
    Expect(22);
    // Growing the stack again after the thread-locals are gone.
    for (activity_correlation_id_t id = 100; id < 120; ++id) {
      if (roctracer_activity_push_external_correlation_id(id) !=
          ROCTRACER_STATUS_SUCCESS) {
        _exit(1);
      }
    }
    for (activity_correlation_id_t id = 120; id-- > 100;) Expect(id);
    Expect(11);
    activity_correlation_id_t none = 7;
    if (roctracer_activity_pop_external_correlation_id(&none) ==
            ROCTRACER_STATUS_SUCCESS ||
        none != 0) {
      _exit(1);
    }
  }
} g_pop_at_exit;

}  // namespace

int main() {
  for (activity_correlation_id_t id : {11, 22, 33}) {
    if (roctracer_activity_push_external_correlation_id(id) !=
        ROCTRACER_STATUS_SUCCESS) {
      return 1;
    }
  }
  return 0;
}
