// Registers the generated HSA_API and HIP_API domains (names, IDs, the active
// bytes the stubs test) with the domain registry when libroctracer64.so is
// loaded, before main() and before the application can enable anything, so
// roctracer_op_string / roctracer_op_code and every enable call work from the
// first moment.
#include <roctracer.h>

#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "runtime/intercept/api_hook.h"
#include "runtime/activity/domain_registry.h"

namespace roctracer {
namespace {

struct RegisterApiDomains {
  RegisterApiDomains() {
    RegisterApiDomain(ACTIVITY_DOMAIN_HSA_API, hsa_api::kCount, &hsa_api::Name,
                      &hsa_api::IdByName);
    RegisterActiveFlags(ACTIVITY_DOMAIN_HSA_API, hook::g_hsa_api_active,
                        hsa_api::kCount);
    RegisterApiDomain(ACTIVITY_DOMAIN_HIP_API, hip_api::kCount, &hip_api::Name,
                      &hip_api::IdByName);
    RegisterActiveFlags(ACTIVITY_DOMAIN_HIP_API, hook::g_hip_api_active,
                        hip_api::kCount);
  }
} g_register_api_domains;

}  // namespace
}  // namespace roctracer
