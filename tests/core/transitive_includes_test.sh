#!/bin/bash
# Code written against ROCm's headers relies on what they include for it:
# roctracer's own tools use std::cout after including only roctracer_hip.h or
# roctracer_hsa.h, rocprofiler-sdk samples call printf after including only
# <rocprofiler-sdk/rocprofiler.h>, older tools include roctracer_hcc.h. Each
# snippet is compiled as users compile, with the system compiler and its
# default flags (plus the platform macro HIP's headers demand), against the
# headers of the ROCm release built against (hsa.h's path in it).
set -euo pipefail
roctracer_h="$1"   # include/roctracer.h
generated_h="$2"   # codegen/hsa_api_data.h
sdk_generated_h="$3"  # codegen/sdk/rocprofiler-sdk/hsa/api_id.h
rocm_include=$(cd "$(dirname "$4")/.." && pwd)  # <release>/include/hsa/hsa.h
inc=$(cd "$(dirname "$roctracer_h")" && pwd)
gen=$(cd "$(dirname "$generated_h")" && pwd)
sdkgen=$(cd "$(dirname "$sdk_generated_h")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-I"$inc" -I"$gen" -I"$sdkgen" -I"$rocm_include" -D__HIP_PLATFORM_AMD__
       -fsyntax-only)
failures=0

check() {  # name, compiler, extension, source
  local name="$1" cc="$2" ext="$3"
  printf '%s\n' "$4" > "$work/$name.$ext"
  if "$cc" "${flags[@]}" "$work/$name.$ext" 2> "$work/$name.log"; then
    echo "ok: $name"
  else
    echo "FAIL: $name"
    sed 's/^/    /' "$work/$name.log" | head -20
    failures=$((failures + 1))
  fi
}

check hip_header_gives_iostream g++ cc '#include <roctracer_hip.h>
int main() { std::string s = "x"; std::cout << s << std::endl; return 0; }'

check hsa_header_gives_iostream g++ cc '#include <roctracer_hsa.h>
int main() { std::cout << std::hex << HSA_OP_ID_COPY << std::endl; return 0; }'

check hcc_header_declares_hip_ops g++ cc '#include <roctracer_hcc.h>
int main() { const hip_api_data_t* d = nullptr; (void)d; return HIP_OP_ID_COPY == 1 ? 0 : 1; }'

check sdk_header_gives_stdio_c gcc c '#include <rocprofiler-sdk/rocprofiler.h>
int main(void) { printf("%d\n", ROCPROFILER_VERSION_MAJOR); fflush(stdout); return 0; }'

check sdk_header_gives_stdio_cxx g++ cc '#include <rocprofiler-sdk/rocprofiler.h>
int main() { printf("%d\n", ROCPROFILER_VERSION_MAJOR); return 0; }'

check roctracer_header_gives_stddef_stdint gcc c '#include <roctracer.h>
int main(void) { size_t n = sizeof(uint64_t); void* p = malloc(n); free(p); return 0; }'

# What ROCm's roctracer_hip.h / roctracer_hsa.h give beside the C API, on
# this release's headers: HIP's hip_prof_str.h helpers (HIP's header after
# ours adds nothing; before ours it is the definition), the HSA printer, the
# plugin interface (C too).
check hip_prof_helpers_beside_hips_header g++ cc '#define HIP_PROF_HIP_API_STRING 1
#include <roctracer_hip.h>
#include <hip/amd_detail/hip_prof_str.h>
int main() {
  hip_api_data_t d{};
  hipApiArgsInit(HIP_API_ID_hipMalloc, &d);
  const char* s = hipApiString(HIP_API_ID_hipMalloc, &d);
  std::cout << dim3(1, 2, 3) << s;
  return hip_api_name(hipApiIdByName("hipMalloc")) == nullptr;
}'

check hips_header_first g++ cc '#include <hip/hip_runtime_api.h>
#include <hip/amd_detail/hip_prof_str.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
int main() { return hip_api_name(HIP_API_ID_hipMalloc) == nullptr; }'

check hsa_pair_printer g++ cc '#include <roctracer_hsa.h>
#include <sstream>
int main() {
  hsa_api_data_t d{};
  std::ostringstream o;
  o << hsa_api_data_pair_t(HSA_API_ID_hsa_init, d) << hsa_agent_t{1};
  return o.str().empty();
}'

check plugin_header_c gcc c '#include <roctracer_plugin.h>
int roctracer_plugin_initialize(uint32_t major, uint32_t minor) {
  return major + minor == 0;
}
int main(void) { return roctracer_plugin_initialize(4, 1); }'

# roctx.h and rocprofiler-sdk-roctx/roctx.h both declare roctx_range_id_t:
# together, in either order, in strict C99 (no repeated typedef).
flags+=(-std=c99 -pedantic-errors)
check roctx_headers_together_c99 gcc c '#include <roctx.h>
#include <rocprofiler-sdk-roctx/roctx.h>
int main(void) { roctx_range_id_t id = 0; roctx_thread_id_t t = 0; return (int)(id + t); }'
check roctx_headers_together_reversed_c99 gcc c '#include <rocprofiler-sdk-roctx/roctx.h>
#include <roctx.h>
int main(void) { return roctxRangePop() < -1; }'

exit $((failures > 0))
