#include "runtime/gpu/code_objects.h"

#include <cxxabi.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/gpu/agents.h"
#include "runtime/gpu/completion.h"
#include "runtime/gpu/kernel_descriptor.h"
#include "runtime/gpu/observers.h"
#include "runtime/gpu/runtime_table.h"

namespace roctracer::gpu {
namespace {

struct Kernel {
  uint64_t executable;
  hsa_agent_t agent;
  std::string symbol_name;
  std::string name;
  uint32_t kernarg_size;
  uint32_t group_size;
  uint32_t private_size;
  uint32_t kernarg_alignment;
  KernelRegisters registers;
};

struct CodeObject {
  hsa_agent_t agent;
  uint64_t handle;
  std::string uri;
  uint64_t load_base;
  uint64_t load_size;
  int64_t load_delta;
  uint32_t storage_type;
  int storage_file;
  uint64_t memory_base;
  uint64_t memory_size;
};

struct Executable {
  std::vector<CodeObject> code_objects;
  std::vector<uint64_t> kernels;
};

struct Tracker {
  std::mutex mutex;
  std::unordered_map<uint64_t, Kernel> kernels;  // by kernel object
  std::map<uint64_t, Executable> executables;    // by handle
};
Tracker* g_tracker = nullptr;

// fork(): the child has only the forking thread. A thread of the parent
// inside an executable's freeze or destroy (or in an observer called from
// there) held the mutex at the fork and never lets it go in the child, whose
// first code-object event or exit would wait for it forever; and the maps it
// was editing may be half-edited. So the child starts with a new tracker when
// the lock was held (the parent's executables go unnamed in the child, and
// their unload is the parent's to report), and keeps the parent's otherwise.
void RemakeInChild() {
  if (g_tracker->mutex.try_lock()) {
    g_tracker->mutex.unlock();
  } else {
    g_tracker = new Tracker;  // the old one left as it was, never read
  }
}

Tracker& State() {
  // Used at exit: never destroyed.
  static const bool made = [] {
    g_tracker = new Tracker;
    pthread_atfork(nullptr, nullptr, &RemakeInChild);
    return true;
  }();
  (void)made;
  return *g_tracker;
}

KernelSymbolEvent SymbolEvent(bool load, uint64_t object, const Kernel& k) {
  return KernelSymbolEvent{load,
                           hsa_executable_t{k.executable},
                           k.agent,
                           object,
                           k.symbol_name.c_str(),
                           k.name.c_str(),
                           k.kernarg_size,
                           k.group_size,
                           k.private_size,
                           k.kernarg_alignment,
                           k.registers};
}

CodeObjectEvent ObjectEvent(bool load, uint64_t executable,
                            const CodeObject& c) {
  return CodeObjectEvent{load,
                         hsa_executable_t{executable},
                         c.agent,
                         c.handle,
                         c.uri.c_str(),
                         c.load_base,
                         c.load_size,
                         c.load_delta,
                         c.storage_type,
                         c.storage_file,
                         c.memory_base,
                         c.memory_size,
                         DeviceIndex(c.agent)};
}

bool LoaderTable(hsa_ven_amd_loader_1_01_pfn_t* pfn) {
  if (Core().hsa_system_get_major_extension_table_fn == nullptr) return false;
  std::memset(pfn, 0, sizeof(*pfn));
  return Core().hsa_system_get_major_extension_table_fn(
             HSA_EXTENSION_AMD_LOADER, 1, sizeof(*pfn), pfn) ==
             HSA_STATUS_SUCCESS &&
         pfn->hsa_ven_amd_loader_executable_iterate_loaded_code_objects !=
             nullptr &&
         pfn->hsa_ven_amd_loader_loaded_code_object_get_info != nullptr;
}

std::vector<CodeObject> ReadCodeObjects(hsa_executable_t executable,
                                        hsa_ven_amd_loader_1_01_pfn_t& pfn) {
  std::vector<CodeObject> out;
  struct Ctx {
    hsa_ven_amd_loader_1_01_pfn_t* pfn;
    std::vector<CodeObject>* out;
  } ctx{&pfn, &out};
  pfn.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
      executable,
      [](hsa_executable_t, hsa_loaded_code_object_t lco, void* data) {
        auto* c = static_cast<Ctx*>(data);
        auto info = c->pfn->hsa_ven_amd_loader_loaded_code_object_get_info;
        CodeObject o{};
        o.handle = lco.handle;
        info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &o.agent);
        info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE,
             &o.load_base);
        info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE,
             &o.load_size);
        info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA,
             &o.load_delta);
        o.storage_type = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE;
        o.storage_file = -1;
        info(
            lco,
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE,
            &o.storage_type);
        if (o.storage_type ==
            HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE) {
          info(
              lco,
              HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE,
              &o.storage_file);
        } else if (o.storage_type ==
                   HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
          info(
              lco,
              HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE,
              &o.memory_base);
          info(
              lco,
              HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE,
              &o.memory_size);
        }
        uint32_t uri_length = 0;
        if (info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH,
                 &uri_length) == HSA_STATUS_SUCCESS &&
            uri_length > 0) {
          std::vector<char> uri(uri_length + 1, '\0');
          if (info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI,
                   uri.data()) == HSA_STATUS_SUCCESS) {
            o.uri.assign(uri.data(), strnlen(uri.data(), uri_length));
          }
        }
        c->out->push_back(std::move(o));
        return HSA_STATUS_SUCCESS;
      },
      &ctx);
  return out;
}

// The agent's target, from its ISA's name (or, failing that, the agent's
// name, which ROCR spells "gfx90a").
bool AgentTarget(hsa_agent_t agent, GfxTarget* target) {
  const CoreApiTable& core = Core();
  if (core.hsa_agent_iterate_isas_fn != nullptr &&
      core.hsa_isa_get_info_alt_fn != nullptr) {
    struct Ctx {
      GfxTarget* target;
      bool found;
    } ctx{target, false};
    core.hsa_agent_iterate_isas_fn(
        agent,
        [](hsa_isa_t isa, void* data) {
          auto* c = static_cast<Ctx*>(data);
          uint32_t length = 0;
          if (Core().hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME_LENGTH,
                                             &length) != HSA_STATUS_SUCCESS ||
              length == 0 || length > 256) {
            return HSA_STATUS_SUCCESS;
          }
          std::vector<char> name(length + 1, '\0');
          if (Core().hsa_isa_get_info_alt_fn(
                  isa, HSA_ISA_INFO_NAME, name.data()) == HSA_STATUS_SUCCESS &&
              ParseGfxTarget(name.data(), c->target)) {
            c->found = true;
            return HSA_STATUS_INFO_BREAK;
          }
          return HSA_STATUS_SUCCESS;
        },
        &ctx);
    if (ctx.found) return true;
  }
  char name[64] = {};
  return core.hsa_agent_get_info_fn != nullptr &&
         core.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_NAME, name) ==
             HSA_STATUS_SUCCESS &&
         ParseGfxTarget(name, target);
}

// The kernel descriptor is device memory, which the host may not be able to
// read (a discrete GPU's): only the host copy the loader extension maps it
// to is read, never the kernel object itself.
KernelRegisters ReadRegisters(
    uint64_t kernel_object, hsa_agent_t agent,
    const hsa_ven_amd_loader_1_01_pfn_t* pfn,
    std::map<uint64_t, std::pair<bool, GfxTarget>>* targets) {
  KernelRegisters unknown{};
  if (pfn == nullptr || pfn->hsa_ven_amd_loader_query_host_address == nullptr) {
    return unknown;
  }
  auto t = targets->find(agent.handle);
  if (t == targets->end()) {
    GfxTarget target{};
    const bool found = AgentTarget(agent, &target);
    t = targets->emplace(agent.handle, std::make_pair(found, target)).first;
  }
  if (!t->second.first) return unknown;
  const void* host = nullptr;
  if (pfn->hsa_ven_amd_loader_query_host_address(
          reinterpret_cast<const void*>(kernel_object), &host) !=
          HSA_STATUS_SUCCESS ||
      host == nullptr) {
    return unknown;
  }
  uint8_t descriptor[kKernelDescriptorSize];
  std::memcpy(descriptor, host, sizeof(descriptor));
  return DecodeKernelRegisters(t->second.second, descriptor);
}

std::vector<std::pair<uint64_t, Kernel>> ReadKernels(
    hsa_executable_t executable, const hsa_ven_amd_loader_1_01_pfn_t* pfn) {
  std::vector<std::pair<uint64_t, Kernel>> out;
  if (Core().hsa_executable_iterate_symbols_fn == nullptr) return out;
  struct Ctx {
    uint64_t executable;
    std::vector<std::pair<uint64_t, Kernel>>* out;
  } ctx{executable.handle, &out};
  Core().hsa_executable_iterate_symbols_fn(
      executable,
      [](hsa_executable_t, hsa_executable_symbol_t symbol, void* data) {
        auto* c = static_cast<Ctx*>(data);
        auto info = Core().hsa_executable_symbol_get_info_fn;
        hsa_symbol_kind_t kind;
        if (info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) !=
                HSA_STATUS_SUCCESS ||
            kind != HSA_SYMBOL_KIND_KERNEL) {
          return HSA_STATUS_SUCCESS;
        }
        uint32_t length = 0;
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &length);
        std::vector<char> name(length + 1, '\0');
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name.data());
        Kernel k{};
        k.executable = c->executable;
        k.symbol_name.assign(name.data(), strnlen(name.data(), length));
        k.name = KernelDisplayName(k.symbol_name.c_str());
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &k.agent);
        uint64_t object = 0;
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object);
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
             &k.kernarg_size);
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
             &k.group_size);
        info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
             &k.private_size);
        info(symbol,
             HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT,
             &k.kernarg_alignment);
        if (object != 0) c->out->emplace_back(object, std::move(k));
        return HSA_STATUS_SUCCESS;
      },
      &ctx);
  // After the iteration, so that no loader call is made from inside the
  // runtime's callback.
  std::map<uint64_t, std::pair<bool, GfxTarget>> targets;
  for (auto& [object, k] : out) {
    k.registers = ReadRegisters(object, k.agent, pfn, &targets);
  }
  return out;
}

// Requires the tracker's mutex.
void ForgetLocked(uint64_t handle) {
  Tracker& t = State();
  auto it = t.executables.find(handle);
  if (it == t.executables.end()) return;
  for (uint64_t object : it->second.kernels) {
    auto k = t.kernels.find(object);
    if (k == t.kernels.end()) continue;
    const KernelSymbolEvent e = SymbolEvent(false, object, k->second);
    ForEachObserver([&e](Observer* o) { o->OnKernelSymbol(e); });
    t.kernels.erase(k);
  }
  for (const CodeObject& c : it->second.code_objects) {
    const CodeObjectEvent e = ObjectEvent(false, handle, c);
    ForEachObserver([&e](Observer* o) { o->OnCodeObject(e); });
  }
  t.executables.erase(it);
}

}  // namespace

std::string KernelDisplayName(const char* symbol_name) {
  std::string name = symbol_name != nullptr ? symbol_name : "";
  const size_t n = name.size();
  if (n > 3 && name.compare(n - 3, 3, ".kd") == 0) name.resize(n - 3);
  if (name.compare(0, 2, "_Z") == 0) {
    int status = 0;
    char* demangled =
        abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status == 0 && demangled != nullptr) name = demangled;
    std::free(demangled);
  }
  return name;
}

hsa_status_t ExecutableFreeze(hsa_executable_t executable,
                              const char* options) {
  const hsa_status_t status =
      Core().hsa_executable_freeze_fn(executable, options);
  if (status != HSA_STATUS_SUCCESS) return status;
  hsa_ven_amd_loader_1_01_pfn_t pfn;
  const bool loader = LoaderTable(&pfn);
  std::vector<CodeObject> objects;
  if (loader) objects = ReadCodeObjects(executable, pfn);
  auto kernels = ReadKernels(executable, loader ? &pfn : nullptr);
  Tracker& t = State();
  std::lock_guard<std::mutex> lock(t.mutex);
  ForgetLocked(executable.handle);  // frozen twice: report once
  Executable& e = t.executables[executable.handle];
  e.code_objects = std::move(objects);
  for (const CodeObject& c : e.code_objects) {
    const CodeObjectEvent ev = ObjectEvent(true, executable.handle, c);
    ForEachObserver([&ev](Observer* o) { o->OnCodeObject(ev); });
  }
  for (auto& [object, kernel] : kernels) {
    e.kernels.push_back(object);
    const Kernel& k = t.kernels[object] = std::move(kernel);
    const KernelSymbolEvent ev = SymbolEvent(true, object, k);
    ForEachObserver([&ev](Observer* o) { o->OnKernelSymbol(ev); });
  }
  return status;
}

hsa_status_t ExecutableDestroy(hsa_executable_t executable) {
  HarvestAll(HarvestReason::kExecutableDestroy);
  {
    Tracker& t = State();
    std::lock_guard<std::mutex> lock(t.mutex);
    ForgetLocked(executable.handle);
  }
  return Core().hsa_executable_destroy_fn(executable);
}

bool KernelName(uint64_t kernel_object, std::string* name) {
  Tracker& t = State();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.kernels.find(kernel_object);
  if (it == t.kernels.end()) return false;
  *name = it->second.name;
  return true;
}

void UnloadAllCodeObjects() {
  Tracker& t = State();
  std::lock_guard<std::mutex> lock(t.mutex);
  while (!t.executables.empty()) ForgetLocked(t.executables.begin()->first);
}

void ReplayLoaded(Observer* observer) {
  if (observer == nullptr) return;
  Tracker& t = State();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (const auto& [handle, e] : t.executables) {
    for (const CodeObject& c : e.code_objects) {
      observer->OnCodeObject(ObjectEvent(true, handle, c));
    }
    for (uint64_t object : e.kernels) {
      auto k = t.kernels.find(object);
      if (k != t.kernels.end()) {
        observer->OnKernelSymbol(SymbolEvent(true, object, k->second));
      }
    }
  }
}

}  // namespace roctracer::gpu
