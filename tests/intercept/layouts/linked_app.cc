// Built by link_layouts_test.py with the system g++ and its default flags,
// `g++ linked_app.cc [-lroctracer64] -lamdhip64 -lhsa-runtime64`, as a user
// builds. Prints what the runtimes answer (compared with a build without
// the tracer) and, when the tracer is in the process, what it traced.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <cstdio>

#include "tracer_handle.h"

namespace {

void Answers(const char* when) {
  int count = -1;
  const hipError_t e = hipGetDeviceCount(&count);
  std::printf("%s hipGetDeviceCount %d count %d\n", when, static_cast<int>(e),
              count);
  const char* text = hipGetErrorString(hipErrorInvalidValue);
  std::printf("%s hipGetErrorString %s\n", when, text ? text : "(null)");
  const char* status_text = nullptr;
  const hsa_status_t s =
      hsa_status_string(HSA_STATUS_ERROR_INVALID_ARGUMENT, &status_text);
  std::printf("%s hsa_status_string 0x%x %s\n", when, static_cast<unsigned>(s),
              status_text ? status_text : "(null)");
}

}  // namespace

int main() {
  Answers("before");
  layouts::Tracer tracer;
  if (!tracer.Bind(RTLD_DEFAULT)) {
    std::printf("NO_TRACER\n");
    Answers("after");
    return 0;
  }
  tracer.EnableAll();
  Answers("after");
  tracer.DisableAll();
  std::printf("TRACED hipGetDeviceCount %d\n",
              tracer.Traced("hipGetDeviceCount"));
  std::printf("TRACED hipGetErrorString %d\n",
              tracer.Traced("hipGetErrorString"));
  std::printf("TRACED hsa_status_string %d\n",
              tracer.Traced("hsa_status_string"));
  return 0;
}
