#include "runtime/gpu/hsa_evt_callbacks.h"

#include <hsa/hsa_ven_amd_loader.h>
#include <roctracer_hsa.h>

#include <cstring>

#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/trace_guard.h"

namespace roctracer::gpu {

using activity::CallbackEntry;
using activity::CallbackFor;

namespace {

void Deliver(uint32_t op, const hsa_evt_data_t& data) {
  const CallbackEntry* cb = CallbackFor(ACTIVITY_DOMAIN_HSA_EVT, op);
  if (cb == nullptr) return;
  // HSA calls the callback makes are its own, not the application's.
  hook::UntracedScope untraced;
  cb->fn(ACTIVITY_DOMAIN_HSA_EVT, op, &data, cb->arg);
}

class Callbacks final : public Observer {
 public:
  uint64_t OnEnqueue(const EnqueueInfo&) noexcept override { return 0; }

  void OnCodeObject(const CodeObjectEvent& e) noexcept override {
    // As roctracer: a code object the loader has no storage for (none) is
    // not reported.
    if (e.storage_type == HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE) {
      return;
    }
    hsa_evt_data_t data{};
    data.codeobj.storage_type = e.storage_type;
    data.codeobj.storage_file = e.storage_file;
    data.codeobj.memory_base = e.memory_base;
    data.codeobj.memory_size = e.memory_size;
    data.codeobj.load_base = e.load_base;
    data.codeobj.load_size = e.load_size;
    data.codeobj.load_delta = static_cast<uint64_t>(e.load_delta);
    data.codeobj.uri_length = static_cast<uint32_t>(std::strlen(e.uri));
    data.codeobj.uri = e.uri;
    data.codeobj.unload = e.load ? 0 : 1;
    Deliver(HSA_EVT_ID_CODEOBJ, data);
  }

  void OnKernelSymbol(const KernelSymbolEvent& e) noexcept override {
    hsa_evt_data_t data{};
    data.ksymbol.object = e.kernel_object;
    data.ksymbol.name = e.kernel_name;
    data.ksymbol.name_length =
        static_cast<uint32_t>(std::strlen(e.kernel_name));
    data.ksymbol.unload = e.load ? 0 : 1;
    Deliver(HSA_EVT_ID_KSYMBOL, data);
  }
};

}  // namespace

Observer* HsaEvtCallbacks() {
  static Callbacks* callbacks = new Callbacks;  // observers are never destroyed
  return callbacks;
}

}  // namespace roctracer::gpu
