// Code object readers, executables, their symbols, and the
// hsa_ven_amd_loader extension. A code object is loaded by writing it to a
// memfd and dlopen-ing that, so two loads of the same bytes are two
// independent libraries, as two loads of a GPU code object are. Its kernel
// descriptors live in a "device" segment the host cannot read (an
// inaccessible mapping, as a discrete GPU's memory): a kernel object is a
// descriptor's address there, and the loader extension's
// query_host_address maps it to the host copy, as ROCR's loader does.
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>

#include "softhsa/amdgpu_code_object.h"
#include "softhsa/api.h"
#include "softhsa/elf_kernels.h"
#include "softhsa/kernel_descriptor.h"
#include "softhsa/loader.h"
#include "softhsa/twins.h"

namespace softhsa {
namespace {

struct Reader {
  std::vector<uint8_t> bytes;
  bool from_file = false;
  int fd = -1;
  std::string uri;
};

struct Executable;
struct CodeObject;

struct Symbol {
  std::string name;
  Kernel* kernel;   // nullptr: a variable
  uint64_t object;  // its descriptor's (a variable's) device address
  CodeObject* code_object;
  uint64_t size = 0;  // a variable's
};

struct CodeObject {
  Executable* executable;
  Agent* agent;
  void* library = nullptr;
  std::unique_ptr<Kernel[]> kernels;  // what runs, by descriptor index
  size_t count = 0;
  // The segment, `device_size` bytes at `device`. A host library's: its
  // `count` descriptors, mapped inaccessible, their host copy at `host`. An
  // AMDGPU code object's: its loaded image, readable (all memory is host
  // memory), so `host_base` is `device`.
  uint8_t* device = nullptr;
  size_t device_size = 0;
  std::unique_ptr<uint8_t[]> host;
  uint8_t* host_base = nullptr;
  std::map<uintptr_t, size_t> kernel_at;  // descriptor offset -> kernel
  std::vector<std::unique_ptr<Symbol>> symbols;
  std::vector<uint8_t> storage;
  bool from_file = false;
  int fd = -1;
  std::string uri;
};

struct Executable {
  hsa_profile_t profile;
  hsa_default_float_rounding_mode_t rounding;
  bool frozen = false;
  std::vector<std::unique_ptr<CodeObject>> code_objects;
};

std::mutex& g_readers_mutex = *new std::mutex;
std::unordered_set<Reader*>& g_readers = *new std::unordered_set<Reader*>;
// Executables, symbols and the segment of every loaded code object; shared
// for look-ups from packet processors and tools, exclusive for changes.
std::shared_mutex& g_mutex = *new std::shared_mutex;
std::unordered_set<Executable*>& g_executables =
    *new std::unordered_set<Executable*>;
std::unordered_set<Symbol*>& g_symbols = *new std::unordered_set<Symbol*>;
std::map<uintptr_t, CodeObject*>& g_segments =
    *new std::map<uintptr_t, CodeObject*>;

Executable* ToExecutable(hsa_executable_t e) {
  auto* x = reinterpret_cast<Executable*>(e.handle);
  return g_executables.count(x) ? x : nullptr;
}

Symbol* ToSymbol(hsa_executable_symbol_t s) {
  auto* x = reinterpret_cast<Symbol*>(s.handle);
  return g_symbols.count(x) ? x : nullptr;
}

CodeObject* SegmentOf(uintptr_t address) {
  auto it = g_segments.upper_bound(address);
  if (it == g_segments.begin()) return nullptr;
  --it;
  CodeObject* co = it->second;
  return address < it->first + co->device_size ? co : nullptr;
}

uint32_t ReadSize(void* library, const std::string& what,
                  const std::string& kernel) {
  auto* v = static_cast<const uint32_t*>(
      dlsym(library, ("softhsa_" + what + "_" + kernel).c_str()));
  return v ? *v : 0;
}

void Unload(CodeObject* co) {
  g_segments.erase(reinterpret_cast<uintptr_t>(co->device));
  for (auto& s : co->symbols) g_symbols.erase(s.get());
  if (co->library) dlclose(co->library);
  if (co->device) munmap(co->device, co->device_size);
}

void DestroyLocked(Executable* x) {
  for (auto& co : x->code_objects) Unload(co.get());
  g_executables.erase(x);
  delete x;
}

hsa_status_t NewReader(std::vector<uint8_t> bytes, bool from_file, int fd,
                       std::string uri, hsa_code_object_reader_t* out) {
  auto* r = new Reader{std::move(bytes), from_file, fd, std::move(uri)};
  std::lock_guard<std::mutex> lock(g_readers_mutex);
  g_readers.insert(r);
  out->handle = reinterpret_cast<uint64_t>(r);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ReaderFromFile(hsa_file_t file, size_t offset, size_t size,
                            bool whole, hsa_code_object_reader_t* reader) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (reader == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct stat st;
  if (fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
    return HSA_STATUS_ERROR_INVALID_FILE;
  }
  if (whole) {
    offset = 0;
    size = static_cast<size_t>(st.st_size);
  }
  if (offset > static_cast<size_t>(st.st_size) ||
      size > static_cast<size_t>(st.st_size) - offset || size == 0) {
    return HSA_STATUS_ERROR_INVALID_FILE;
  }
  std::vector<uint8_t> bytes(size);
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(file, bytes.data() + done, size - done, offset + done);
    if (n <= 0) return HSA_STATUS_ERROR_INVALID_FILE;
    done += static_cast<size_t>(n);
  }
  char path[4096] = {};
  std::string link = "/proc/self/fd/" + std::to_string(file);
  ssize_t len = readlink(link.c_str(), path, sizeof(path) - 1);
  std::string uri = "file://" + std::string(path, len > 0 ? len : 0) +
                    "#offset=" + std::to_string(offset) +
                    "&size=" + std::to_string(size);
  return NewReader(std::move(bytes), true, file, uri, reader);
}

// A host shared library: its exported functions are its kernels.
hsa_status_t LoadHostLibrary(Agent* a, const Reader& copy,
                             std::unique_ptr<CodeObject>* out) {
  std::vector<std::string> names;
  if (!ExportedFunctions(copy.bytes.data(), copy.bytes.size(), &names)) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  int fd = memfd_create("softhsa-code-object", MFD_CLOEXEC);
  if (fd < 0) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  size_t done = 0;
  while (done < copy.bytes.size()) {
    ssize_t n = write(fd, copy.bytes.data() + done, copy.bytes.size() - done);
    if (n <= 0) {
      close(fd);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    done += static_cast<size_t>(n);
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  close(fd);
  if (library == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;

  auto co = std::make_unique<CodeObject>();
  co->agent = a;
  co->library = library;
  co->count = names.size();
  co->kernels.reset(new Kernel[std::max<size_t>(1, names.size())]);
  co->host.reset(
      new uint8_t[std::max<size_t>(1, names.size()) * kKernelDescriptorSize]);
  if (co->count > 0) {
    co->device_size = co->count * kKernelDescriptorSize;
    void* device = mmap(nullptr, co->device_size, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (device == MAP_FAILED) {
      dlclose(library);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    co->device = static_cast<uint8_t*>(device);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    Kernel& k = co->kernels[i];
    k.fn = reinterpret_cast<KernelFn>(dlsym(library, names[i].c_str()));
    k.name = InternName(names[i]);
    co->kernel_at[i * kKernelDescriptorSize] = i;
    KernelDeclaration d{};
    d.kernarg_size = k.kernarg_size =
        ReadSize(library, "kernarg_size", names[i]);
    d.group_size = k.group_size =
        ReadSize(library, "group_segment_size", names[i]);
    d.private_size = k.private_size =
        ReadSize(library, "private_segment_size", names[i]);
    d.vgprs = ReadSize(library, "vgpr_count", names[i]);
    d.accum_vgprs = ReadSize(library, "accum_vgpr_count", names[i]);
    d.sgprs = ReadSize(library, "sgpr_count", names[i]);
    d.wavefront_size = ReadSize(library, "wavefront_size", names[i]);
    EncodeKernelDescriptor(a->name, d,
                           co->host.get() + i * kKernelDescriptorSize);
    const uint64_t object =
        reinterpret_cast<uint64_t>(co->device + i * kKernelDescriptorSize);
    co->symbols.push_back(
        std::make_unique<Symbol>(Symbol{names[i], &k, object, co.get()}));
  }
  co->host_base = co->host.get();
  *out = std::move(co);
  return HSA_STATUS_SUCCESS;
}

// An AMDGPU code object: its image is copied into a segment of its own, its
// kernel descriptors stay where the compiler put them (so a tool reads the
// compiler's own register counts), and each kernel runs its host twin.
hsa_status_t LoadAmdgpu(Agent* a, const Reader& copy,
                        std::unique_ptr<CodeObject>* out) {
  AmdgpuCodeObject elf;
  if (!ReadAmdgpuCodeObject(copy.bytes.data(), copy.bytes.size(), &elf)) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  const KernelArgs args = ReadKernelArgs(copy.bytes.data(), copy.bytes.size());
  auto co = std::make_unique<CodeObject>();
  co->agent = a;
  if (!elf.image.empty()) {
    co->device_size = elf.image.size();
    void* device = mmap(nullptr, co->device_size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (device == MAP_FAILED) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    co->device = static_cast<uint8_t*>(device);
    memcpy(co->device, elf.image.data(), elf.image.size());
  }
  co->host_base = co->device;
  for (const AmdgpuSymbol& s : elf.symbols) co->count += s.kernel;
  co->kernels.reset(new Kernel[std::max<size_t>(1, co->count)]);
  size_t k = 0;
  for (const AmdgpuSymbol& s : elf.symbols) {
    const uint64_t address = reinterpret_cast<uint64_t>(co->device + s.vaddr);
    if (!s.kernel) {
      co->symbols.push_back(std::make_unique<Symbol>(
          Symbol{s.name, nullptr, address, co.get(), s.size}));
      continue;
    }
    const std::string name = s.name.substr(0, s.name.size() - 3);
    Kernel& kernel = co->kernels[k];
    const uint8_t* kd = co->device + s.vaddr;  // AMDHSA kernel descriptor
    memcpy(&kernel.group_size, kd + 0, 4);
    memcpy(&kernel.private_size, kd + 4, 4);
    memcpy(&kernel.kernarg_size, kd + 8, 4);
    auto described = args.find(name);
    kernel.fn =
        FindTwin(name, described != args.end() ? described->second
                                               : std::vector<KernelArg>{});
    kernel.name = InternName(name);
    co->kernel_at[s.vaddr] = k++;
    co->symbols.push_back(
        std::make_unique<Symbol>(Symbol{s.name, &kernel, address, co.get()}));
  }
  *out = std::move(co);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t SymbolInfo(Symbol* s, hsa_executable_symbol_info_t attribute,
                        void* value) {
  auto put32 = [&](uint32_t v) {
    memcpy(value, &v, sizeof(v));
    return HSA_STATUS_SUCCESS;
  };
  if (s->kernel == nullptr) {  // a variable
    switch (attribute) {
      case HSA_EXECUTABLE_SYMBOL_INFO_TYPE: {
        hsa_symbol_kind_t k = HSA_SYMBOL_KIND_VARIABLE;
        memcpy(value, &k, sizeof(k));
        return HSA_STATUS_SUCCESS;
      }
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
        memcpy(value, &s->object, sizeof(s->object));
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
        return put32(static_cast<uint32_t>(s->size));
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION: {
        hsa_variable_allocation_t a = HSA_VARIABLE_ALLOCATION_AGENT;
        memcpy(value, &a, sizeof(a));
        return HSA_STATUS_SUCCESS;
      }
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT: {
        hsa_variable_segment_t g = HSA_VARIABLE_SEGMENT_GLOBAL;
        memcpy(value, &g, sizeof(g));
        return HSA_STATUS_SUCCESS;
      }
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
        return put32(8);
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST: {
        bool b = false;
        memcpy(value, &b, sizeof(b));
        return HSA_STATUS_SUCCESS;
      }
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      default:
        break;  // name, agent, linkage, ...: as a kernel's
    }
  }
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE: {
      hsa_symbol_kind_t k = HSA_SYMBOL_KIND_KERNEL;
      memcpy(value, &k, sizeof(k));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
      return put32(static_cast<uint32_t>(s->name.size()));
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:  // not NUL-terminated, as in HSA
      memcpy(value, s->name.data(), s->name.size());
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
      return put32(0);
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT: {
      hsa_agent_t a = ToHandle(s->code_object->agent);
      memcpy(value, &a, sizeof(a));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE: {
      hsa_symbol_linkage_t l = HSA_SYMBOL_LINKAGE_PROGRAM;
      memcpy(value, &l, sizeof(l));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION: {
      bool b = true;
      memcpy(value, &b, sizeof(b));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      memcpy(value, &s->object, sizeof(s->object));
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      return put32(s->kernel->kernarg_size);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      return put32(16);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      return put32(s->kernel->group_size);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      return put32(s->kernel->private_size);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: {
      bool b = false;
      memcpy(value, &b, sizeof(b));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
      return put32(0);
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// --- hsa_ven_amd_loader ------------------------------------------------

hsa_status_t QueryHostAddress(const void* device_address,
                              const void** host_address) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (device_address == nullptr || host_address == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (GetFaults().host_address_error) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  const auto address = reinterpret_cast<uintptr_t>(device_address);
  CodeObject* co = SegmentOf(address);
  if (co == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *host_address =
      co->host_base + (address - reinterpret_cast<uintptr_t>(co->device));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t QuerySegmentDescriptors(
    hsa_ven_amd_loader_segment_descriptor_t* descriptors, size_t* count) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (count == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  if (descriptors == nullptr) {
    *count = g_segments.size();
    return HSA_STATUS_SUCCESS;
  }
  if (*count < g_segments.size()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  size_t i = 0;
  for (auto& [base, co] : g_segments) {
    hsa_ven_amd_loader_segment_descriptor_t& d = descriptors[i++];
    d.agent = ToHandle(co->agent);
    d.executable = hsa_executable_t{reinterpret_cast<uint64_t>(co->executable)};
    d.code_object_storage_type =
        HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
    d.code_object_storage_base = co->storage.data();
    d.code_object_storage_size = co->storage.size();
    d.code_object_storage_offset = 0;
    d.segment_base = reinterpret_cast<const void*>(base);
    d.segment_size = co->device_size;
  }
  *count = i;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t QueryExecutable(const void* device_address,
                             hsa_executable_t* executable) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (device_address == nullptr || executable == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  CodeObject* co = SegmentOf(reinterpret_cast<uintptr_t>(device_address));
  if (co == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  executable->handle = reinterpret_cast<uint64_t>(co->executable);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t IterateLoadedCodeObjects(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t, hsa_loaded_code_object_t, void*),
    void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<CodeObject*> list;
  {
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    Executable* x = ToExecutable(executable);
    if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (auto& co : x->code_objects) list.push_back(co.get());
  }
  for (CodeObject* co : list) {
    hsa_status_t s = callback(
        executable, hsa_loaded_code_object_t{reinterpret_cast<uint64_t>(co)},
        data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t LoadedCodeObjectGetInfo(
    hsa_loaded_code_object_t loaded,
    hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  CodeObject* co = nullptr;
  for (auto& [base, c] : g_segments) {
    if (reinterpret_cast<uint64_t>(c) == loaded.handle) co = c;
  }
  if (co == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  auto put = [&](auto v) {
    memcpy(value, &v, sizeof(v));
    return HSA_STATUS_SUCCESS;
  };
  uintptr_t base = reinterpret_cast<uintptr_t>(co->device);
  switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
      return put(hsa_executable_t{reinterpret_cast<uint64_t>(co->executable)});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
      return put(uint32_t{HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
      return put(ToHandle(co->agent));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
      return put(uint32_t{
          co->from_file ? HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE
                        : HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
      return put(reinterpret_cast<uint64_t>(co->storage.data()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
      return put(uint64_t{co->storage.size()});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE:
      return put(int{co->fd});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
      return put(int64_t(base));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
      return put(uint64_t{base});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
      return put(uint64_t{co->device_size});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
      return put(uint32_t(co->uri.size()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
      memcpy(value, co->uri.data(), co->uri.size());
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t ReaderFromFileWithOffsetSize(hsa_file_t file, size_t offset,
                                          size_t size,
                                          hsa_code_object_reader_t* reader) {
  return ReaderFromFile(file, offset, size, false, reader);
}

hsa_status_t IterateExecutables(hsa_status_t (*callback)(hsa_executable_t,
                                                         void*),
                                void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<Executable*> list;
  {
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    list.assign(g_executables.begin(), g_executables.end());
  }
  for (Executable* x : list) {
    hsa_status_t s =
        callback(hsa_executable_t{reinterpret_cast<uint64_t>(x)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace

bool FindKernel(uint64_t object, Kernel* out) {
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  CodeObject* co = SegmentOf(object);
  if (co == nullptr) return false;
  auto it =
      co->kernel_at.find(object - reinterpret_cast<uintptr_t>(co->device));
  if (it == co->kernel_at.end()) return false;
  *out = co->kernels[it->second];
  return true;
}

hsa_ven_amd_loader_1_03_pfn_t LoaderTable() {
  hsa_ven_amd_loader_1_03_pfn_t t{};
  t.hsa_ven_amd_loader_query_host_address = QueryHostAddress;
  t.hsa_ven_amd_loader_query_segment_descriptors = QuerySegmentDescriptors;
  t.hsa_ven_amd_loader_query_executable = QueryExecutable;
  t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects =
      IterateLoadedCodeObjects;
  t.hsa_ven_amd_loader_loaded_code_object_get_info = LoadedCodeObjectGetInfo;
  t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
      ReaderFromFileWithOffsetSize;
  t.hsa_ven_amd_loader_iterate_executables = IterateExecutables;
  return t;
}

void DestroyAllExecutables() {
  {
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    while (!g_executables.empty()) DestroyLocked(*g_executables.begin());
  }
  std::lock_guard<std::mutex> lock(g_readers_mutex);
  for (Reader* r : g_readers) delete r;
  g_readers.clear();
}

namespace api {

hsa_status_t hsa_code_object_reader_create_from_file(
    hsa_file_t file, hsa_code_object_reader_t* reader) {
  return ReaderFromFile(file, 0, 0, true, reader);
}

hsa_status_t hsa_code_object_reader_create_from_memory(
    const void* code_object, size_t size, hsa_code_object_reader_t* reader) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (code_object == nullptr || size == 0 || reader == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const auto* p = static_cast<const uint8_t*>(code_object);
  char uri[96];
  snprintf(uri, sizeof(uri), "memory://%d#offset=0x%lx&size=%zu", getpid(),
           static_cast<unsigned long>(reinterpret_cast<uintptr_t>(p)), size);
  return NewReader(std::vector<uint8_t>(p, p + size), false, -1, uri, reader);
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  auto* r = reinterpret_cast<Reader*>(reader.handle);
  std::lock_guard<std::mutex> lock(g_readers_mutex);
  if (g_readers.erase(r) == 0)
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  delete r;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create_alt(
    hsa_profile_t profile,
    hsa_default_float_rounding_mode_t default_float_rounding_mode, const char*,
    hsa_executable_t* executable) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (executable == nullptr ||
      (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  auto* x = new Executable{profile, default_float_rounding_mode};
  std::unique_lock<std::shared_mutex> lock(g_mutex);
  g_executables.insert(x);
  executable->handle = reinterpret_cast<uint64_t>(x);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create(hsa_profile_t profile,
                                   hsa_executable_state_t state,
                                   const char* options,
                                   hsa_executable_t* executable) {
  if (state != HSA_EXECUTABLE_STATE_UNFROZEN &&
      state != HSA_EXECUTABLE_STATE_FROZEN) {
    return Initialized() ? HSA_STATUS_ERROR_INVALID_ARGUMENT
                         : HSA_STATUS_ERROR_NOT_INITIALIZED;
  }
  hsa_status_t s = api::hsa_executable_create_alt(
      profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, options, executable);
  if (s == HSA_STATUS_SUCCESS && state == HSA_EXECUTABLE_STATE_FROZEN) {
    reinterpret_cast<Executable*>(executable->handle)->frozen = true;
  }
  return s;
}

hsa_status_t hsa_executable_load_agent_code_object(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_code_object_reader_t code_object_reader, const char*,
    hsa_loaded_code_object_t* loaded_code_object) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr || a->type != HSA_DEVICE_TYPE_GPU) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  Reader copy;
  {
    std::lock_guard<std::mutex> lock(g_readers_mutex);
    auto* r = reinterpret_cast<Reader*>(code_object_reader.handle);
    if (!g_readers.count(r)) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
    copy = *r;
  }
  {
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    Executable* x = ToExecutable(executable);
    if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    if (x->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  }
  std::unique_ptr<CodeObject> co;
  if (IsAmdgpuElf(copy.bytes.data(), copy.bytes.size())) {
    hsa_status_t s = LoadAmdgpu(a, copy, &co);
    if (s != HSA_STATUS_SUCCESS) return s;
  } else {
    hsa_status_t s = LoadHostLibrary(a, copy, &co);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  co->storage = std::move(copy.bytes);
  co->from_file = copy.from_file;
  co->fd = copy.fd;
  co->uri = copy.uri;

  std::unique_lock<std::shared_mutex> lock(g_mutex);
  Executable* x = ToExecutable(executable);
  if (x == nullptr || x->frozen) {  // destroyed or frozen meanwhile
    Unload(co.get());
    return x ? HSA_STATUS_ERROR_FROZEN_EXECUTABLE
             : HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  }
  co->executable = x;
  if (co->device_size > 0) {
    g_segments[reinterpret_cast<uintptr_t>(co->device)] = co.get();
  }
  for (auto& s : co->symbols) g_symbols.insert(s.get());
  if (loaded_code_object) {
    loaded_code_object->handle = reinterpret_cast<uint64_t>(co.get());
  }
  x->code_objects.push_back(std::move(co));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char*) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::unique_lock<std::shared_mutex> lock(g_mutex);
  Executable* x = ToExecutable(executable);
  if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (x->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  x->frozen = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_destroy(hsa_executable_t executable) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::unique_lock<std::shared_mutex> lock(g_mutex);
  Executable* x = ToExecutable(executable);
  if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  DestroyLocked(x);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_info(hsa_executable_t executable,
                                     hsa_executable_info_t attribute,
                                     void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  Executable* x = ToExecutable(executable);
  if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_EXECUTABLE_INFO_PROFILE:
      memcpy(value, &x->profile, sizeof(x->profile));
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_INFO_STATE: {
      hsa_executable_state_t s = x->frozen ? HSA_EXECUTABLE_STATE_FROZEN
                                           : HSA_EXECUTABLE_STATE_UNFROZEN;
      memcpy(value, &s, sizeof(s));
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      memcpy(value, &x->rounding, sizeof(x->rounding));
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_executable_validate(hsa_executable_t executable,
                                     uint32_t* result) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  if (ToExecutable(executable) == nullptr) {
    return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  }
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_validate_alt(hsa_executable_t executable,
                                         const char*, uint32_t* result) {
  return api::hsa_executable_validate(executable, result);
}

hsa_status_t hsa_executable_get_symbol_by_name(
    hsa_executable_t executable, const char* symbol_name,
    const hsa_agent_t* agent, hsa_executable_symbol_t* symbol) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (symbol_name == nullptr || symbol == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const std::string exact = symbol_name;
  // Code object v3+ names a kernel by its descriptor, "name.kd"; a host
  // library's kernels are named without it.
  std::string name = exact;
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0) {
    name.resize(name.size() - 3);
  }
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  Executable* x = ToExecutable(executable);
  if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (auto& co : x->code_objects) {
    if (agent != nullptr && agent->handle != ToHandle(co->agent).handle) {
      continue;
    }
    for (auto& s : co->symbols) {
      if (s->name == exact || (co->library != nullptr && s->name == name)) {
        symbol->handle = reinterpret_cast<uint64_t>(s.get());
        return HSA_STATUS_SUCCESS;
      }
    }
  }
  return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

hsa_status_t hsa_executable_get_symbol(hsa_executable_t executable, const char*,
                                       const char* symbol_name,
                                       hsa_agent_t agent, int32_t,
                                       hsa_executable_symbol_t* symbol) {
  return api::hsa_executable_get_symbol_by_name(executable, symbol_name, &agent,
                                                symbol);
}

hsa_status_t hsa_executable_symbol_get_info(
    hsa_executable_symbol_t executable_symbol,
    hsa_executable_symbol_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  Symbol* s = ToSymbol(executable_symbol);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return SymbolInfo(s, attribute, value);
}

hsa_status_t hsa_executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t, hsa_agent_t,
                             hsa_executable_symbol_t, void*),
    void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ToAgent(agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<uint64_t> list;
  {
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    Executable* x = ToExecutable(executable);
    if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (auto& co : x->code_objects) {
      if (ToHandle(co->agent).handle != agent.handle) continue;
      for (auto& s : co->symbols) {
        list.push_back(reinterpret_cast<uint64_t>(s.get()));
      }
    }
  }
  for (uint64_t h : list) {
    hsa_status_t st =
        callback(executable, agent, hsa_executable_symbol_t{h}, data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_iterate_program_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void*),
    void*) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  if (ToExecutable(executable) == nullptr) {
    return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  }
  return HSA_STATUS_SUCCESS;  // kernels are agent symbols; there are no others
}

hsa_status_t hsa_executable_iterate_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void*),
    void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<uint64_t> list;
  {
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    Executable* x = ToExecutable(executable);
    if (x == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (auto& co : x->code_objects) {
      for (auto& s : co->symbols) {
        list.push_back(reinterpret_cast<uint64_t>(s.get()));
      }
    }
  }
  for (uint64_t h : list) {
    hsa_status_t st = callback(executable, hsa_executable_symbol_t{h}, data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
}  // namespace softhsa
