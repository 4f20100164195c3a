// An HSA tool of the user's own, named in HSA_TOOLS_LIB beside a
// rocprofiler-sdk tool: the tracer puts its own path before the user's
// tools, so ROCR (which loads the named tools in the variable's order) calls
// this OnLoad after the tracer's, and sees the environment as the tracer
// left it. softhsa orders named tools by HSA_AMD_TOOL_PRIORITY instead:
// 100, after the tracer's 50, gives the same order there. Each OnLoad and
// OnUnload appends one line to $OTHER_TOOL_OUT:
//   onload HSA_TOOLS_LIB   (the variable's value, "-" when unset)
//   onunload
#include <hsa/hsa_api_trace.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

void Log(const char* what, const char* value) {
  const char* path = std::getenv("OTHER_TOOL_OUT");
  if (path == nullptr) return;
  FILE* f = std::fopen(path, "a");
  if (f == nullptr) return;
  if (value == nullptr) {
    std::fprintf(f, "%s\n", what);
  } else {
    std::fprintf(f, "%s %s\n", what, value);
  }
  std::fclose(f);
}

}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 100;

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable*, uint64_t,
                                                   uint64_t,
                                                   const char* const*) {
  const char* tools = std::getenv("HSA_TOOLS_LIB");
  Log("onload", tools == nullptr ? "-" : tools);
  return true;
}

__attribute__((visibility("default"))) void OnUnload() {
  Log("onunload", nullptr);
}

}  // extern "C"
