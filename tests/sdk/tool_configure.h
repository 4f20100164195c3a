// What the SDK test tools return from their configure function
// (rocprofiler_configure, or the one handed to rocprofiler_force_configure):
// a client name and a configure result that outlives the call, as the SDK
// reads the result after configure returns and keeps the name.
#ifndef TESTS_SDK_TOOL_CONFIGURE_H_
#define TESTS_SDK_TOOL_CONFIGURE_H_

#include <rocprofiler-sdk/registration.h>

namespace sdk_test {

// Names the client `name` (left as the SDK set it when NULL) and returns a
// result holding `Init`, `Fini` and `tool_data`. One result per (Init, Fini)
// pair, in static storage: no allocation, so a tool that counts allocations
// can use it, and two tools of one process each get their own. `tool_data`
// is the first call's.
template <rocprofiler_tool_initialize_t Init,
          rocprofiler_tool_finalize_t Fini = nullptr>
rocprofiler_tool_configure_result_t* Configure(rocprofiler_client_id_t* id,
                                               const char* name,
                                               void* tool_data = nullptr) {
  static rocprofiler_tool_configure_result_t result{
      sizeof(rocprofiler_tool_configure_result_t), Init, Fini, tool_data};
  if (name != nullptr) id->name = name;
  return &result;
}

// A configure function for rocprofiler_force_configure of a tool that keeps
// the name the SDK gives it: Configure<Init, Fini> without a name.
template <rocprofiler_tool_initialize_t Init,
          rocprofiler_tool_finalize_t Fini = nullptr>
rocprofiler_tool_configure_result_t* UnnamedConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return Configure<Init, Fini>(id, nullptr);
}

}  // namespace sdk_test

// Defines the program's own rocprofiler_configure (found by the SDK's scan
// at the runtimes' first call: the test links with -rdynamic) returning
// Configure<&INIT>(id, NAME). A macro: the exported C function cannot come
// from a template.
#define SDK_TEST_DEFINE_ROCPROFILER_CONFIGURE(INIT, NAME) \
  extern "C" __attribute__((visibility("default")))       \
  rocprofiler_tool_configure_result_t*                    \
  rocprofiler_configure(uint32_t, const char*, uint32_t,  \
                        rocprofiler_client_id_t* id) {    \
    return sdk_test::Configure<&INIT>(id, NAME);          \
  }

#endif  // TESTS_SDK_TOOL_CONFIGURE_H_
