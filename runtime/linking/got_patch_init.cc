// libroctracer64.so patches the objects loaded with it at load, and puts
// every slot back before it is unloaded (a dlclose'd tracer must leave no
// slot pointing into its unmapped code). Its fatal-signal handler goes in
// first, so the program's sigaction()/signal() calls patched here find it.
#include "runtime/linking/got_patch.h"
#include "runtime/platform/fatal_signal.h"

namespace {

__attribute__((constructor)) void PatchAtLoad() {
  roctracer::fatal_signal::Install();
  roctracer::got::Arm();
  roctracer::got::RescanIfChanged();
}

__attribute__((destructor)) void RestoreAtUnload() {
  roctracer::got::RestoreAll();
  roctracer::fatal_signal::Uninstall();
}

}  // namespace
