#include "runtime/linking/got_patch.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api_domain_list.h"

extern "C" {
// Generated tables (<d>_symbol_wrappers.cc, one per domain of the list).
#define ROCTRACER_DECLARE_STUB_TABLE(d, value)              \
  extern const roctracer_stub_entry roctracer_##d##_stubs[] \
      __attribute__((weak, visibility("hidden")));          \
  extern const size_t roctracer_##d##_stub_count            \
      __attribute__((weak, visibility("hidden")));
ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_DECLARE_STUB_TABLE)
#undef ROCTRACER_DECLARE_STUB_TABLE

// got_patch_hooks.S: rescan, then jump to the real function with the
// caller's return address intact (dlsym(RTLD_NEXT) and RTLD_DEFAULT depend
// on who called).
void roctracer_dlsym_hook() __attribute__((visibility("hidden")));
void roctracer_dlvsym_hook() __attribute__((visibility("hidden")));
__attribute__((visibility("hidden"))) void* roctracer_real_dlsym =
    reinterpret_cast<void*>(&dlsym);
__attribute__((visibility("hidden"))) void* roctracer_real_dlvsym =
    reinterpret_cast<void*>(&dlvsym);
// runtime/platform/fatal_signal.h, where linked (libroctracer64.so): the
// program's sigaction()/signal() calls, so its handlers for the fatal
// signals run from the tracer's.
int roctracer_sigaction_hook(int, const struct sigaction*, struct sigaction*)
    __attribute__((weak, visibility("hidden")));
void (*roctracer_signal_hook(int, void (*)(int)))(int)
    __attribute__((weak, visibility("hidden")));
// runtime/linking/exec_hooks.h, where linked (libroctracer64.so): the
// program's exec calls, so what was recorded is written before the image
// goes, and every new program (exec, spawn, system) gets the environment
// without the tracer's own changes.
// clang-format off
#define ROCTRACER_EXEC_HOOKS(X) \
  X(execve) X(execv) X(execvp) X(execvpe) X(fexecve) \
  X(execl) X(execlp) X(execle) X(posix_spawn) X(posix_spawnp) X(system)
// clang-format on
#define ROCTRACER_DECLARE_EXEC_HOOK(name) \
  void roctracer_##name##_hook() __attribute__((weak, visibility("hidden")));
ROCTRACER_EXEC_HOOKS(ROCTRACER_DECLARE_EXEC_HOOK)
#undef ROCTRACER_DECLARE_EXEC_HOOK
__attribute__((visibility("hidden"))) void roctracer_got_rescan_hook() {
  roctracer::got::RescanIfChanged();
}
}

namespace roctracer::got {
namespace {

struct Slot {
  void** address;
  void* original;
  void* stub;
};

// One loaded object, found again by its dynamic section's address (unique
// among the objects loaded at one time). After an unload, a library loaded
// again at the same address has the same key: its entry is checked (name,
// slots still ours) and scanned afresh when it does not match.
struct Object {
  const ElfW(Dyn) * dynamic;
  std::string name;
  uintptr_t relro_begin = 0, relro_end = 0;
  std::vector<Slot> slots;
  bool seen = false;
};

struct State {
  std::mutex mu;
  std::unordered_map<std::string_view, void*> stubs;  // name -> our stub
  bool first_chars[256] = {};  // first letters of the names in `stubs`
  std::unordered_map<const void*, Object> objects;  // key: dynamic section
  unsigned long long adds = ~0ull, subs = ~0ull;
  uint64_t scans = 0;
  const void* self_base = nullptr;
  bool disabled = false;
  bool unloaded_since_scan = false;  // during a scan: subs changed
  bool deferred = false;  // during a scan: an object the loader still holds
};

std::atomic<bool> g_armed{false};

State& GetState() {
  static State* s = [] {
    auto* state = new State;  // outlives every destructor that may call us
    // A fork while another thread scans leaves the child's mutex held; the
    // child's first dlsym would wait for it forever.
    pthread_atfork(nullptr, nullptr, [] { new (&GetState().mu) std::mutex(); });
    return state;
  }();
  return *s;
}

void AddStub(State& s, const char* name, void* stub) {
  s.stubs.emplace(name, stub);
  s.first_chars[static_cast<unsigned char>(name[0])] = true;
}

void AddTable(State& s, const roctracer_stub_entry* table, const size_t* n) {
  if (table == nullptr || n == nullptr) return;
  for (size_t i = 0; i < *n; ++i) AddStub(s, table[i].name, table[i].stub);
}

void InitOnce(State& s) {
  if (!s.stubs.empty() || s.disabled) return;
  const char* env = std::getenv("ROCTRACER_GOT_PATCH");
  if (env != nullptr && std::strcmp(env, "0") == 0) {
    s.disabled = true;
    return;
  }
#define ROCTRACER_ADD_STUB_TABLE(d, value) \
  AddTable(s, roctracer_##d##_stubs, &roctracer_##d##_stub_count);
  ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_ADD_STUB_TABLE)
#undef ROCTRACER_ADD_STUB_TABLE
  AddStub(s, "dlsym", reinterpret_cast<void*>(&roctracer_dlsym_hook));
  AddStub(s, "dlvsym", reinterpret_cast<void*>(&roctracer_dlvsym_hook));
  if (&roctracer_sigaction_hook != nullptr &&
      &roctracer_signal_hook != nullptr) {
    AddStub(s, "sigaction", reinterpret_cast<void*>(&roctracer_sigaction_hook));
    AddStub(s, "signal", reinterpret_cast<void*>(&roctracer_signal_hook));
  }
#define ROCTRACER_ADD_EXEC_HOOK(name)                                     \
  if (&roctracer_##name##_hook != nullptr) {                              \
    AddStub(s, #name, reinterpret_cast<void*>(&roctracer_##name##_hook)); \
  }
  ROCTRACER_EXEC_HOOKS(ROCTRACER_ADD_EXEC_HOOK)
#undef ROCTRACER_ADD_EXEC_HOOK
  Dl_info info{};
  dladdr(reinterpret_cast<void*>(&RescanIfChanged), &info);
  s.self_base = info.dli_fbase;
}

// The C library's functions the tracer takes over (dlsym, dlvsym,
// sigaction, signal, the exec family, posix_spawn(p), system), as opposed to
// the runtimes' APIs.
bool IsLibcHook(const State& s, void* stub) {
  (void)s;
#define ROCTRACER_IS_EXEC_HOOK(name)                               \
  if (stub != nullptr &&                                           \
      stub == reinterpret_cast<void*>(&roctracer_##name##_hook)) { \
    return true;                                                   \
  }
  ROCTRACER_EXEC_HOOKS(ROCTRACER_IS_EXEC_HOOK)
#undef ROCTRACER_IS_EXEC_HOOK
  return stub == reinterpret_cast<void*>(&roctracer_dlsym_hook) ||
         stub == reinterpret_cast<void*>(&roctracer_dlvsym_hook) ||
         (stub != nullptr &&
          (stub == reinterpret_cast<void*>(&roctracer_sigaction_hook) ||
           stub == reinterpret_cast<void*>(&roctracer_signal_hook)));
}

// Whether ld.so is done with the object at `address`: dl_iterate_phdr lists
// an object as soon as it is mapped, before ld.so has relocated it and made
// its RELRO read-only, and _r_debug says RT_CONSISTENT before relocation
// starts too. _dl_find_object knows an object only from the moment dlopen
// has relocated every new object and protected their RELRO (and from the
// start for those loaded with the program), and forgets it when dlclose
// begins to tear it down. Lock-free; glibc >= 2.35.
bool LoaderDoneWith(const void* address) {
  dl_find_object found{};
  return _dl_find_object(const_cast<void*>(address), &found) == 0;
}

// RELRO pages made writable for the duration of a patch. [begin, end) is
// page-aligned already (see PageAlignedRelro). Only objects LoaderDoneWith
// are ever patched, so ld.so no longer writes these pages and expects them
// read-only, as the window leaves them.
class RelroWindow {
 public:
  RelroWindow(uintptr_t begin, uintptr_t end) : begin_(begin), end_(end) {
    if (begin_ < end_)
      open_ = mprotect(reinterpret_cast<void*>(begin_), end_ - begin_,
                       PROT_READ | PROT_WRITE) == 0;
  }
  ~RelroWindow() {
    if (open_)
      mprotect(reinterpret_cast<void*>(begin_), end_ - begin_, PROT_READ);
  }
  RelroWindow(const RelroWindow&) = delete;
  RelroWindow& operator=(const RelroWindow&) = delete;
  bool open() const { return open_; }

 private:
  uintptr_t begin_, end_;
  bool open_ = false;
};

// ld.so makes read-only only the whole pages of PT_GNU_RELRO (the start
// rounded down, the end rounded down): the partial last page shares data
// that must stay writable.
void PageAlignedRelro(uintptr_t begin, uintptr_t size, uintptr_t* b,
                      uintptr_t* e) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  *b = begin & ~(page - 1);
  *e = (begin + size) & ~(page - 1);
  if (*e < *b) *e = *b;
}

bool InRelro(const Object& obj, void** slot) {
  const auto a = reinterpret_cast<uintptr_t>(slot);
  return a >= obj.relro_begin && a < obj.relro_end;
}

uintptr_t Addr(uintptr_t base, ElfW(Addr) p) {
  // ld.so rebases these entries in place for most objects, not for all (the
  // vDSO's dynamic section is read-only).
  return p < base ? base + p : p;
}

// The C library, the loader and the sanitizer runtimes call dlsym while
// they set themselves up or inside their interceptors, where running our
// scan (which allocates) is not safe, and install signal handlers of their
// own: their dlsym, dlvsym, sigaction and signal slots are left alone.
bool KeepsItsLibc(const char* path) {
  const char* slash = std::strrchr(path, '/');
  const char* base = slash != nullptr ? slash + 1 : path;
  static const char* const kPrefixes[] = {
      "ld-linux",   "libc.so",    "libdl.so",    "libpthread.so", "libasan.so",
      "libtsan.so", "liblsan.so", "libubsan.so", "libhwasan.so"};
  for (const char* p : kPrefixes)
    if (std::strncmp(base, p, std::strlen(p)) == 0) return true;
  return false;
}

void ScanRelocations(State& s, uintptr_t base, const ElfW(Rela) * rel,
                     size_t bytes, const ElfW(Sym) * symtab, const char* strtab,
                     bool hook_libc, std::vector<Slot>* out) {
  const size_t n = bytes / sizeof(ElfW(Rela));
  for (size_t i = 0; i < n; ++i) {
    const auto type = ELF64_R_TYPE(rel[i].r_info);
    if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
    const ElfW(Sym)& sym = symtab[ELF64_R_SYM(rel[i].r_info)];
    const char* name = strtab + sym.st_name;
    // Cheap pre-filter before the hash lookup: the first letters of the
    // stubbed names (hip*, hsa*, dl*, sig*, exec*, fexecve, posix_spawn*,
    // system).
    if (!s.first_chars[static_cast<unsigned char>(name[0])]) continue;
    auto it = s.stubs.find(name);
    if (it == s.stubs.end()) continue;
    if (!hook_libc && IsLibcHook(s, it->second)) continue;
    // GLOB_DAT is a call in code built with -fno-plt, or an address taken.
    // The object defining the function may put that address in its own
    // dispatch table (ROCR does for hsa_ext_image_*), where our stub would
    // forward to the table's trampoline and back: in the defining object
    // only calls through the PLT (JUMP_SLOT) are redirected.
    if (type == R_X86_64_GLOB_DAT && sym.st_shndx != SHN_UNDEF) continue;
    out->push_back(Slot{reinterpret_cast<void**>(base + rel[i].r_offset),
                        nullptr, it->second});
  }
}

Object ScanObject(State& s, const dl_phdr_info* info) {
  Object obj{};
  const uintptr_t base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_DYNAMIC)
      obj.dynamic = reinterpret_cast<const ElfW(Dyn)*>(base + ph.p_vaddr);
    if (ph.p_type == PT_GNU_RELRO)
      PageAlignedRelro(base + ph.p_vaddr, ph.p_memsz, &obj.relro_begin,
                       &obj.relro_end);
  }
  if (obj.dynamic == nullptr) return obj;
  const ElfW(Sym)* symtab = nullptr;
  const char* strtab = nullptr;
  const ElfW(Rela)* jmprel = nullptr, *rela = nullptr;
  size_t jmprel_bytes = 0, rela_bytes = 0;
  bool plt_is_rela = true;
  for (const ElfW(Dyn)* d = obj.dynamic; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB:
        symtab = reinterpret_cast<const ElfW(Sym)*>(Addr(base, d->d_un.d_ptr));
        break;
      case DT_STRTAB:
        strtab = reinterpret_cast<const char*>(Addr(base, d->d_un.d_ptr));
        break;
      case DT_JMPREL:
        jmprel = reinterpret_cast<const ElfW(Rela)*>(Addr(base, d->d_un.d_ptr));
        break;
      case DT_PLTRELSZ:
        jmprel_bytes = d->d_un.d_val;
        break;
      case DT_PLTREL:
        plt_is_rela = d->d_un.d_val == DT_RELA;
        break;
      case DT_RELA:
        rela = reinterpret_cast<const ElfW(Rela)*>(Addr(base, d->d_un.d_ptr));
        break;
      case DT_RELASZ:
        rela_bytes = d->d_un.d_val;
        break;
    }
  }
  if (symtab == nullptr || strtab == nullptr) return obj;
  std::vector<Slot> slots;
  const bool hook_libc =
      !KeepsItsLibc(info->dlpi_name != nullptr ? info->dlpi_name : "");
  if (jmprel != nullptr && plt_is_rela)
    ScanRelocations(s, base, jmprel, jmprel_bytes, symtab, strtab, hook_libc,
                    &slots);
  if (rela != nullptr)
    ScanRelocations(s, base, rela, rela_bytes, symtab, strtab, hook_libc,
                    &slots);
  if (slots.empty()) return obj;
  bool in_relro = false;
  for (const Slot& sl : slots) in_relro |= InRelro(obj, sl.address);
  RelroWindow window(in_relro ? obj.relro_begin : 0,
                     in_relro ? obj.relro_end : 0);
  for (Slot sl : slots) {
    if (InRelro(obj, sl.address) && !window.open()) continue;
    auto* slot = reinterpret_cast<std::atomic<void*>*>(sl.address);
    sl.original = slot->load(std::memory_order_relaxed);
    if (sl.original == sl.stub) continue;  // already bound to us
    slot->store(sl.stub, std::memory_order_release);
    obj.slots.push_back(sl);
  }
  return obj;
}

bool IsSkipped(const State& s, const dl_phdr_info* info) {
  if (reinterpret_cast<const void*>(info->dlpi_addr) == s.self_base &&
      s.self_base != nullptr)
    return true;
  const char* name = info->dlpi_name != nullptr ? info->dlpi_name : "";
  return std::strstr(name, "linux-vdso") != nullptr;
}

const void* DynamicOf(const dl_phdr_info* info) {
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      return reinterpret_cast<const void*>(info->dlpi_addr +
                                           info->dlpi_phdr[i].p_vaddr);
  return nullptr;
}

bool StillSame(const Object& obj, const dl_phdr_info* info) {
  if (obj.name != (info->dlpi_name != nullptr ? info->dlpi_name : ""))
    return false;
  for (const Slot& sl : obj.slots) {
    const auto* slot = reinterpret_cast<std::atomic<void*>*>(sl.address);
    if (slot->load(std::memory_order_relaxed) != sl.stub) return false;
  }
  return true;
}

int ScanOne(dl_phdr_info* info, size_t, void* arg) {
  State& s = *static_cast<State*>(arg);
  const void* dyn = DynamicOf(info);
  if (dyn == nullptr) return 0;
  auto it = s.objects.find(dyn);
  if (it != s.objects.end()) {
    if (!s.unloaded_since_scan || StillSame(it->second, info)) {
      it->second.seen = true;
      return 0;
    }
    s.objects.erase(it);  // another load: its slots are fresh from ld.so
  }
  // Not relocated yet (another thread is inside dlopen): a stub written now
  // would be rebased or overwritten by ld.so, and a RELRO window would make
  // pages read-only under its writes. The scan after that dlopen (the
  // counters are left stale, so the next call scans again) patches it.
  if (!LoaderDoneWith(dyn)) {
    s.deferred = true;
    return 0;
  }
  Object obj{};
  if (!IsSkipped(s, info)) obj = ScanObject(s, info);
  obj.name = info->dlpi_name != nullptr ? info->dlpi_name : "";
  obj.dynamic = static_cast<const ElfW(Dyn)*>(dyn);
  obj.seen = true;
  s.objects.emplace(dyn, std::move(obj));
  return 0;
}

int ReadCounters(dl_phdr_info* info, size_t size, void* arg) {
  auto* c = static_cast<unsigned long long*>(arg);
  if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
    c[0] = info->dlpi_adds;
    c[1] = info->dlpi_subs;
  }
  return 1;  // the counters are the same in every entry: stop at the first
}

int RestoreOne(dl_phdr_info* info, size_t, void* arg) {
  State& s = *static_cast<State*>(arg);
  auto it = s.objects.find(DynamicOf(info));
  if (it == s.objects.end() || it->second.slots.empty()) return 0;
  Object& obj = it->second;
  bool in_relro = false;
  for (const Slot& sl : obj.slots) in_relro |= InRelro(obj, sl.address);
  RelroWindow window(in_relro ? obj.relro_begin : 0,
                     in_relro ? obj.relro_end : 0);
  for (const Slot& sl : obj.slots) {
    if (InRelro(obj, sl.address) && !window.open()) continue;
    auto* slot = reinterpret_cast<std::atomic<void*>*>(sl.address);
    void* expected = sl.stub;
    slot->compare_exchange_strong(expected, sl.original);
  }
  obj.slots.clear();
  return 0;
}

}  // namespace

void Arm() { g_armed.store(true, std::memory_order_release); }

void RescanIfChanged() {
  if (!g_armed.load(std::memory_order_acquire)) return;
  State& s = GetState();
  unsigned long long c[2] = {0, 0};
  dl_iterate_phdr(ReadCounters, c);
  std::lock_guard<std::mutex> lock(s.mu);
  InitOnce(s);
  if (s.disabled || (c[0] == s.adds && c[1] == s.subs)) return;
  for (auto& [dyn, obj] : s.objects) obj.seen = false;
  s.unloaded_since_scan = c[1] != s.subs;
  s.deferred = false;
  dl_iterate_phdr(ScanOne, &s);
  for (auto it = s.objects.begin(); it != s.objects.end();) {
    // Unloaded: its memory is gone (or reused); never touch its slots again.
    it = it->second.seen ? std::next(it) : s.objects.erase(it);
  }
  s.adds = s.deferred ? ~0ull : c[0];  // deferred objects: scan again
  s.subs = c[1];
  ++s.scans;
}

void RestoreAll() {
  State& s = GetState();
  std::lock_guard<std::mutex> lock(s.mu);
  dl_iterate_phdr(RestoreOne, &s);
  s.objects.clear();
  s.adds = s.subs = ~0ull;
}

Stats GetStats() {
  State& s = GetState();
  std::lock_guard<std::mutex> lock(s.mu);
  Stats st{s.objects.size(), 0, s.scans};
  for (const auto& [dyn, obj] : s.objects) st.slots_patched += obj.slots.size();
  return st;
}

}  // namespace roctracer::got
