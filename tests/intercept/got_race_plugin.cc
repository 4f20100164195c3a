// A plugin got_loader_race_test loads and unloads over and over while other
// threads rescan. Its calls into HIP go through its GOT (lazily bound, or
// bound at load and read-only with -z now); its read-only-after-relocation
// tables give ld.so a few thousand relocations to write, so the time between
// the object being listed by dl_iterate_phdr and the end of its relocation
// is long enough for a concurrent scan to fall into it.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

namespace {

using ErrorStringFn = const char* (*)(hipError_t);

// Ten times, a hundred times, a thousand times the same entry.
#define X10(x) x, x, x, x, x, x, x, x, x, x
#define X100(x) X10(X10(x))
#define X1000(x) X10(X100(x))

// Relocated against a symbol of another object (a lookup each).
const ErrorStringFn kFunctions[] = {X1000(&hipGetErrorString),
                                    X1000(&hipGetErrorName)};
// Relocated by adding the base.
const char* const kTexts[] = {X1000("relative")};

}  // namespace

extern "C" __attribute__((visibility("default"))) const char*
plugin_error_string(int e) {
  return hipGetErrorString(static_cast<hipError_t>(e));
}

extern "C" __attribute__((visibility("default"))) int plugin_table_checksum(
    int i) {
  const unsigned n = sizeof(kFunctions) / sizeof(kFunctions[0]);
  return (kFunctions[static_cast<unsigned>(i) % n] != nullptr) +
         (kTexts[static_cast<unsigned>(i) % 1000][0] == 'r');
}

extern "C" __attribute__((visibility("default"))) int plugin_status_string() {
  const char* text = nullptr;
  return static_cast<int>(hsa_status_string(HSA_STATUS_ERROR, &text));
}
