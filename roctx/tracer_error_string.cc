// ROCm 5.2.3's libroctx64 also exported roctracer_error_string (its roctx.h
// declared it), so a program linked against that release may take it from
// libroctx64. The text is the tracer's: when libroctracer64 is loaded, its
// own roctracer_error_string (found by its version, ROCTRACER_4.0, never this
// one); otherwise "", since no rocTX call fails with a message.
#include <dlfcn.h>
#include <roctx.h>

#include "runtime/private/roctx_link.h"

namespace {

using ErrorStringFn = const char* (*)(void);

ErrorStringFn TracerErrorString() {
  constexpr char kName[] = "roctracer_error_string";
  constexpr char kVersion[] = "ROCTRACER_4.0";
  void* sym = dlvsym(RTLD_DEFAULT, kName, kVersion);
  if (sym == nullptr) {
    // Loaded RTLD_LOCAL: only through its handle.
    if (void* handle =
            dlopen(roctracer::kTracerSoname, RTLD_NOW | RTLD_NOLOAD)) {
      sym = dlvsym(handle, kName, kVersion);
      dlclose(handle);
    }
  }
  return reinterpret_cast<ErrorStringFn>(sym);
}

}  // namespace

extern "C" ROCTX_API const char* roctracer_error_string(void) {
  const ErrorStringFn tracer = TracerErrorString();
  return tracer != nullptr ? tracer() : "";
}
