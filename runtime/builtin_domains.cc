#include "runtime/builtin_domains.h"

#include <roctracer_ext.h>
#include <roctracer_roctx.h>

#include <cstring>

#include "runtime/domain_registry.h"

namespace roctracer {
namespace {

// The HSA_OPS / HIP_OPS / HSA_EVT enums live in roctracer_hsa.h and
// roctracer_hip.h, which need the runtimes' headers; their values are fixed by
// roctracer 4.1 so the counts are spelled out here (and checked by tests).
constexpr const char* kHsaOps[] = {"DISPATCH", "COPY", "BARRIER", "RESERVED1"};
constexpr const char* kHipOps[] = {"DISPATCH", "COPY", "BARRIER"};
constexpr const char* kExtOps[] = {"MARK", "EXTERN_ID"};
constexpr const char* kRoctxOps[] = {"roctxMarkA", "roctxRangePushA",
                                     "roctxRangePop", "roctxRangeStartA",
                                     "roctxRangeStop"};
constexpr const char* kHsaEvts[] = {"ALLOCATE", "DEVICE",  "MEMCOPY",
                                    "SUBMIT",   "KSYMBOL", "CODEOBJ"};

static_assert(sizeof(kExtOps) / sizeof(kExtOps[0]) ==
                  ACTIVITY_EXT_OP_EXTERN_ID + 1,
              "EXT_API op table");
static_assert(sizeof(kRoctxOps) / sizeof(kRoctxOps[0]) == ROCTX_API_ID_NUMBER,
              "ROCTX op table");

template <const char* const* kNames, size_t kCount>
struct Table {
  static const char* Name(uint32_t op) {
    return op < kCount ? kNames[op] : nullptr;
  }
  static bool IdByName(const char* name, uint32_t* op) {
    for (size_t i = 0; i < kCount; ++i) {
      if (std::strcmp(kNames[i], name) == 0) {
        *op = static_cast<uint32_t>(i);
        return true;
      }
    }
    return false;
  }
};

template <const char* const* kNames, size_t kCount>
void Register(uint32_t domain) {
  RegisterApiDomain(domain, kCount, &Table<kNames, kCount>::Name,
                    &Table<kNames, kCount>::IdByName);
}

#define ROCTRACER_REGISTER_TABLE(domain, names) \
  Register<names, sizeof(names) / sizeof(names[0])>(domain)

}  // namespace

void RegisterBuiltinDomains() {
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_HSA_OPS, kHsaOps);
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_HIP_OPS, kHipOps);
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_EXT_API, kExtOps);
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_ROCTX, kRoctxOps);
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_HSA_EVT, kHsaEvts);
}

}  // namespace roctracer
