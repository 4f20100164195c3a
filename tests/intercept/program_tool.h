// libprogram_tool.so (program_tool.cc): an HSA tool whose OnLoad and OnUnload
// are the program's own functions, registered before hsa_init.
#ifndef TESTS_INTERCEPT_PROGRAM_TOOL_H_
#define TESTS_INTERCEPT_PROGRAM_TOOL_H_

#include <hsa/hsa_api_trace.h>

#include <cstdint>

extern "C" void program_tool_register(bool (*on_load)(HsaApiTable*, uint64_t,
                                                      uint64_t,
                                                      const char* const*),
                                      void (*on_unload)());

#endif  // TESTS_INTERCEPT_PROGRAM_TOOL_H_
