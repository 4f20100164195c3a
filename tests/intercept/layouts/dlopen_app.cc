// PyTorch's layout: the program links HIP (`g++ dlopen_app.cc -lamdhip64
// -ldl`) and uses it; the tracer arrives later through dlopen (argv[2]:
// "local" or "global"), then a library calling HIP (argv[3]) is dlopen'ed,
// closed and opened again. Prints one line per check; exits 0 only when
// every later HIP call was traced.
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "tracer_handle.h"

namespace {

int failures = 0;

void Check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "OK" : "FAIL", what);
  if (!ok) ++failures;
}

int DeviceCount() {
  int count = -1;
  return static_cast<int>(hipGetDeviceCount(&count));
}

using UserFn = int (*)();

int CallUser(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::printf("FAIL dlopen %s: %s\n", path, dlerror());
    ++failures;
    return -1;
  }
  auto fn = reinterpret_cast<UserFn>(dlsym(lib, "hip_user_device_count"));
  const int e = fn != nullptr ? fn() : -1;
  dlclose(lib);
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const int untraced = DeviceCount();  // HIP in use before the tracer
  const int mode =
      std::strcmp(argv[2], "global") == 0 ? RTLD_GLOBAL : RTLD_LOCAL;
  void* handle = dlopen(argv[1], RTLD_NOW | mode);
  if (handle == nullptr) {
    std::printf("FAIL dlopen tracer: %s\n", dlerror());
    return 1;
  }
  layouts::Tracer tracer;
  if (!tracer.Bind(handle)) {
    std::printf("FAIL tracer API not found\n");
    return 1;
  }
  tracer.EnableAll();

  Check(DeviceCount() == untraced, "same answer with the tracer");
  Check(tracer.Traced("hipGetDeviceCount") == 1, "program's call traced");

  Check(CallUser(argv[3]) == untraced, "library answers");
  Check(tracer.Traced("hipGetDeviceCount") == 2,
        "call of a library dlopen'ed later traced");
  // The library is unloaded now: the process keeps working and a fresh load
  // of it is patched again.
  Check(DeviceCount() == untraced, "program call after the unload");
  Check(tracer.Traced("hipGetDeviceCount") == 3,
        "program call after the unload traced");
  Check(CallUser(argv[3]) == untraced, "library loaded again answers");
  Check(tracer.Traced("hipGetDeviceCount") == 4,
        "call of the library loaded again traced");

  tracer.DisableAll();
  Check(DeviceCount() == untraced, "disabled: answer");
  Check(tracer.Traced("hipGetDeviceCount") == 4, "disabled: not traced");
  std::printf("traced hipGetDeviceCount calls: %d\n",
              tracer.Traced("hipGetDeviceCount"));
  // Unloading the tracer puts every slot back: HIP still answers.
  dlclose(handle);
  Check(DeviceCount() == untraced, "after the tracer is unloaded");
  return failures == 0 ? 0 : 1;
}
