// A library that calls HIP, dlopen'ed by dlopen_app after the tracer:
// `g++ -shared -fPIC hip_user.cc -lamdhip64`.
#include <hip/hip_runtime_api.h>

extern "C" int hip_user_device_count() {
  int count = -1;
  return static_cast<int>(hipGetDeviceCount(&count));
}
