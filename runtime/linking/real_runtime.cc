#include "runtime/linking/real_runtime.h"

#include <dlfcn.h>

#include <cstdio>

#include "runtime/linking/got_patch.h"

namespace roctracer::linking {

const char kRuntimeMissingText[] = "roctracer: runtime library not found";

namespace {

// The object this code is linked into: a definition found there is one of
// our own stubs (reachable through RTLD_NEXT when the tracer is loaded twice
// under two names, or through a dlsym that the patcher redirected).
bool IsOurs(void* p) {
  static const void* const self_base = [] {
    Dl_info info{};
    dladdr(reinterpret_cast<void*>(&ResolveReal), &info);
    return info.dli_fbase;
  }();
  Dl_info info{};
  return dladdr(p, &info) != 0 && info.dli_fbase == self_base;
}

void* Lookup(void* handle, const char* name, const char* version) {
  void* p = version != nullptr ? dlvsym(handle, name, version) : nullptr;
  if (p == nullptr) p = dlsym(handle, name);
  return p != nullptr && !IsOurs(p) ? p : nullptr;
}

void* OpenRuntime(RealRuntime* rt) {
  void* h = rt->handle.load(std::memory_order_acquire);
  if (h != nullptr || rt->missing.load(std::memory_order_acquire)) return h;
  if (rt->soname == nullptr) {  // generated without the library at hand
    rt->missing.store(true);
    return nullptr;
  }
  // RTLD_LOCAL: loading the runtime on behalf of a program that dropped it
  // (--as-needed) must not change what the program's own symbols bind to.
  h = dlopen(rt->soname, RTLD_LAZY | RTLD_LOCAL);
  if (h == nullptr) {
    const char* err = dlerror();
    if (!rt->missing.exchange(true)) {
      std::fprintf(stderr,
                   "roctracer: cannot load the %s runtime %s (%s); %s calls "
                   "return %s\n",
                   rt->what, rt->soname, err != nullptr ? err : "not found",
                   rt->what, rt->status);
    }
    return nullptr;
  }
  void* expected = nullptr;
  if (!rt->handle.compare_exchange_strong(expected, h)) {
    dlclose(h);  // a racing thread stored the same library first
    return expected;
  }
  // What the runtime brought in calls the runtimes through its own GOT.
  got::RescanIfChanged();
  return h;
}

}  // namespace

void* ResolveReal(RealRuntime* runtime, const char* name, const char* version) {
  void* p = Lookup(RTLD_NEXT, name, version);
  if (p != nullptr) return p;
  void* h = OpenRuntime(runtime);
  return h != nullptr ? Lookup(h, name, version) : nullptr;
}

}  // namespace roctracer::linking
