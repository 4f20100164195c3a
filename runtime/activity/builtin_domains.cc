#include "runtime/activity/builtin_domains.h"

#include <roctracer_ext.h>
#include <roctracer_roctx.h>

#include <cstring>

#include "runtime/activity/domain_registry.h"

namespace roctracer::activity {
namespace {

// The HSA_OPS / HIP_OPS / HSA_EVT enums live in roctracer_hsa.h and
// roctracer_hip.h, which need the runtimes' headers; their values are fixed by
// roctracer 4.1 so the counts are spelled out here (and checked by tests).
// HSA_OP_ID_RESERVED1 is named "PCSAMPLE", as ROCm's roctracer names it.
constexpr const char* kHsaOps[] = {"DISPATCH", "COPY", "BARRIER", "PCSAMPLE"};
// Only roctracer_op_code uses these: roctracer_op_string names a HIP_OPS
// record by its command kind (HipCommandName), as ROCm does.
constexpr const char* kHipOps[] = {"DISPATCH", "COPY", "BARRIER"};
// roctracer_op_string answers "EXT_API" for every EXT_API op, as ROCm does;
// roctracer_op_code still tells the two ops apart by these names.
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

const char* ExtApiName(uint32_t op) {
  return op < sizeof(kExtOps) / sizeof(kExtOps[0]) ? "EXT_API" : nullptr;
}

// HIP 5.2.3's command types (CL_COMMAND_* values from 0x11F0 on, plus 0 for
// its internal marker) and the names hipGetCmdName gives them. Spelled out
// rather than asked of libamdhip64: a name must not depend on whether or when
// HIP was loaded, and the strings must outlive a dlclose of HIP.
// tests/core/hip_ops_names_test.cc checks this table against the installed
// libamdhip64's hipGetCmdName for every kind up to 0x20000.
constexpr uint32_t kFirstClCommand = 0x11F0;
constexpr const char* kHipClCommands[] = {"KernelExecution",
                                          "Task",
                                          "NativeKernel",
                                          "CopyDeviceToHost",
                                          "CopyHostToDevice",
                                          "CopyDeviceToDevice",
                                          "ReadImage",
                                          "WriteImage",
                                          "CopyImage",
                                          "CopyImageToBuffer",
                                          "CopyBufferToImage",
                                          "MapBuffer",
                                          "MapImage",
                                          "UnmapMemObject",
                                          "Marker",
                                          "AcquireGLObjects",
                                          "ReleaseGLObjects",
                                          "CopyDeviceToHost2D",
                                          "CopyHostToDevice2D",
                                          "CopyDeviceToDevice2D",
                                          "User",
                                          "Barrier",
                                          "MigrateMemObjects",
                                          "FillBuffer",
                                          "FillImage",
                                          "SvmFree",
                                          "SvmMemcpy",
                                          "SvmMemFill",
                                          "SvmMap",
                                          "SvmUnmap"};

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
  RegisterApiDomain(
      ACTIVITY_DOMAIN_EXT_API, sizeof(kExtOps) / sizeof(kExtOps[0]),
      &ExtApiName,
      &Table<kExtOps, sizeof(kExtOps) / sizeof(kExtOps[0])>::IdByName);
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_ROCTX, kRoctxOps);
  ROCTRACER_REGISTER_TABLE(ACTIVITY_DOMAIN_HSA_EVT, kHsaEvts);
}

const char* HipCommandName(uint32_t kind) noexcept {
  if (kind == 0) return "InternalMarker";
  const uint32_t i = kind - kFirstClCommand;
  if (kind >= kFirstClCommand &&
      i < sizeof(kHipClCommands) / sizeof(kHipClCommands[0])) {
    return kHipClCommands[i];
  }
  return "Unknown command type";
}

}  // namespace roctracer::activity
