// got_loader_race_test's lookups: a library of the program (not the test
// binary, which holds the patcher and is never patched), so its dlsym slot
// gets the patcher's hook and every lookup rescans the loaded objects first,
// as a program's or a runtime's lookups do under the tracer.
#include <dlfcn.h>

extern "C" __attribute__((visibility("default"))) void* race_lookup(
    void* handle, const char* name) {
  return dlsym(handle, name);
}
