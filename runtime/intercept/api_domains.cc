// Registers every generated API domain (HSA_API, HIP_API, KFD_API: the
// generator's list, api_domain_list.h) with its names, IDs and the active
// bytes the stubs test, with the domain registry when libroctracer64.so is
// loaded, before main() and before the application can enable anything, so
// roctracer_op_string / roctracer_op_code and every enable call work from the
// first moment.
#include <roctracer.h>

#include "api_domain_tables.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/api_hook.h"

namespace roctracer {

using activity::RegisterActiveFlags;
using activity::RegisterApiDomain;

namespace {

struct RegisterApiDomains {
  RegisterApiDomains() {
#define ROCTRACER_REGISTER_DOMAIN(d, value)                         \
  RegisterApiDomain(value, d##_api::kCount, &d##_api::Name,         \
                    &d##_api::IdByName, d##_api::kDomainWideCount); \
  RegisterActiveFlags(value, hook::g_##d##_api_active, d##_api::kCount);
    ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_REGISTER_DOMAIN)
#undef ROCTRACER_REGISTER_DOMAIN
  }
} g_register_api_domains;

}  // namespace
}  // namespace roctracer
