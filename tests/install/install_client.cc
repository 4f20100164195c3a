// Built by install_test.sh against an installed tree, as a user builds
// against ROCm: once with pkg-config, once with CMake's find_package. It
// includes the headers in both of ROCm's spellings and every generated
// header the public ones pull in, and exits 0 when the libraries answer.
#include <rocprofiler-sdk/rocprofiler.h>
#include <roctracer.h>
#include <roctracer/roctracer.h>
#include <roctracer/roctracer_ext.h>
#include <roctracer/roctracer_hip.h>
#include <roctracer/roctracer_hsa.h>
#include <roctracer/roctracer_roctx.h>
#include <roctracer/roctx.h>

#include <cstdio>
#include <cstring>

namespace {

int g_failures = 0;
#define EXPECT(cond)                                                    \
  do {                                                                  \
    if (!(cond)) {                                                      \
      std::fprintf(stderr, "install_client:%d: %s\n", __LINE__, #cond); \
      ++g_failures;                                                     \
    }                                                                   \
  } while (0)

int g_marks = 0;
void OnRoctx(uint32_t domain, uint32_t op, const void*, void*) {
  if (domain == ACTIVITY_DOMAIN_ROCTX && op == ROCTX_API_ID_roctxMarkA) {
    ++g_marks;
  }
}

bool NameIs(activity_domain_t domain, uint32_t op, const char* want) {
  const char* name = roctracer_op_string(domain, op, 0);
  return name != nullptr && std::strcmp(name, want) == 0;
}

}  // namespace

int main() {
  EXPECT(roctracer_version_major() == ROCTRACER_VERSION_MAJOR);
  EXPECT(roctracer_version_minor() == ROCTRACER_VERSION_MINOR);
  EXPECT(NameIs(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init, "hsa_init"));
  EXPECT(NameIs(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMalloc, "hipMalloc"));

  EXPECT(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX, OnRoctx,
                                          nullptr) == ROCTRACER_STATUS_SUCCESS);
  roctxMarkA("installed");
  EXPECT(g_marks == 1);
  EXPECT(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_ROCTX) ==
         ROCTRACER_STATUS_SUCCESS);

  uint32_t major = 0, minor = 0, patch = 0;
  EXPECT(rocprofiler_get_version(&major, &minor, &patch) ==
         ROCPROFILER_STATUS_SUCCESS);

  std::printf("install_client: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
