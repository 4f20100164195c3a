// A stand-in for librocprofiler-register.so.0 (ROCm >= 6.2), for
// registration_test: the one entry point runtimes call, with
// rocprofiler-register's lookup of the tool (the library named by
// ROCPROFILER_REGISTER_LIBRARY, else the global rocprofiler_set_api_table
// when a loaded object defines rocprofiler_configure) and its statuses.
#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" {

typedef uint32_t (*rocprofiler_register_import_func_t)(void);
typedef struct {
  uint64_t handle;
} rocprofiler_register_library_indentifier_t;

// rocprofiler-register's values.
enum {
  ROCP_REG_SUCCESS = 0,
  ROCP_REG_NO_TOOLS = 1,
  ROCP_REG_BAD_API_TABLE_LENGTH = 3,
  ROCP_REG_UNSUPPORTED_API = 4,
  ROCP_REG_ROCPROFILER_ERROR = 6,
};

using SetApiTable = int (*)(const char*, uint64_t, uint64_t, void**, uint64_t);

__attribute__((visibility("default"))) int
rocprofiler_register_library_api_table(
    const char* name, rocprofiler_register_import_func_t, uint32_t version,
    void** tables, uint64_t count,
    rocprofiler_register_library_indentifier_t* id) {
  if (count < 1) return ROCP_REG_BAD_API_TABLE_LENGTH;
  int library = -1;
  const char* known[] = {"hsa", "hip", "roctx"};
  for (int i = 0; i < 3; ++i) {
    if (std::strcmp(name, known[i]) == 0) library = i;
  }
  if (library < 0) return ROCP_REG_UNSUPPORTED_API;
  static uint64_t instances[3];
  const uint64_t instance = instances[library]++;
  id->handle = uint64_t{1} << (8 * library + instance);
  SetApiTable set = nullptr;
  if (const char* lib = std::getenv("ROCPROFILER_REGISTER_LIBRARY")) {
    void* h = dlopen(lib, RTLD_NOLOAD | RTLD_LAZY);
    if (h == nullptr) h = dlopen(lib, RTLD_GLOBAL | RTLD_LAZY);
    if (h != nullptr) {
      set =
          reinterpret_cast<SetApiTable>(dlsym(h, "rocprofiler_set_api_table"));
    }
  } else if (dlsym(RTLD_DEFAULT, "rocprofiler_configure") != nullptr) {
    set = reinterpret_cast<SetApiTable>(
        dlsym(RTLD_DEFAULT, "rocprofiler_set_api_table"));
  }
  if (set == nullptr) return ROCP_REG_NO_TOOLS;
  return set(name, version, instance, tables, count) == 0
             ? ROCP_REG_SUCCESS
             : ROCP_REG_ROCPROFILER_ERROR;
}

}  // extern "C"
