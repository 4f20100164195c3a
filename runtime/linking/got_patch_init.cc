// libroctracer64.so patches the objects loaded with it at load, and puts
// every slot back before it is unloaded (a dlclose'd tracer must leave no
// slot pointing into its unmapped code).
#include "runtime/linking/got_patch.h"

namespace {

__attribute__((constructor)) void PatchAtLoad() {
  roctracer::got::RescanIfChanged();
}

__attribute__((destructor)) void RestoreAtUnload() {
  roctracer::got::RestoreAll();
}

}  // namespace
