// Puts libroctracer64's hip*/hsa_* stubs into the GOT slots of every loaded
// object, so calls are traced whatever the load order (docs/interception.md,
// "Load orders"). The generated wrappers provide the name -> stub tables.
#ifndef RUNTIME_LINKING_GOT_PATCH_H_
#define RUNTIME_LINKING_GOT_PATCH_H_

#include <cstddef>
#include <cstdint>

namespace roctracer::got {

// Lets RescanIfChanged patch this process. libroctracer64.so arms the
// patcher when it is loaded (got_patch_init.cc); a program that links the
// runtime's units itself (their unit tests) is left as linked unless it
// arms: it must not rewrite its own GOT when it merely turns a call on.
void Arm();

// Once armed, scans every loaded object not scanned yet (and forgets
// unloaded ones): JUMP_SLOT and GLOB_DAT relocations naming a stubbed
// function get the stub's address; dlsym/dlvsym calls get a hook that
// rescans first. Cheap (one dl_iterate_phdr step) when no object was added
// or removed since the last scan. Thread-safe. A no-op before Arm and when
// ROCTRACER_GOT_PATCH=0. The activity registry calls it when a call is
// turned on, so objects loaded since the last scan are patched first.
void RescanIfChanged();

// Writes every patched slot of the objects still loaded back to its original
// value (slots that no longer hold our stub are left alone).
void RestoreAll();

// Counts for tests and benchmarks.
struct Stats {
  size_t objects_scanned;  // objects known (scanned) now
  size_t slots_patched;    // slots holding a stub now
  uint64_t scans;          // full scans done
};
Stats GetStats();

}  // namespace roctracer::got

// The generated *_symbol_wrappers.cc define these (hidden): every stub by
// the name it is exported under. Weak here, so the patcher links without
// them (it then patches nothing but dlsym).
extern "C" {
struct roctracer_stub_entry {
  const char* name;
  void* stub;
};
}

#endif  // RUNTIME_LINKING_GOT_PATCH_H_
