// Virtual memory (AMD extension interface 1.4 on) and dma-buf export (1.1
// on), as ROCR answers them on a system without either: softhsa reports
// HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED and _DMABUF_SUPPORTED false
// (system.cc), so no address range is ever reserved, no memory handle
// created and no dma-buf exported. ROCR checks its arguments, then refuses
// a reservation or a handle with HSA_STATUS_ERROR_INVALID_ARGUMENT when the
// API is unsupported; every other call names a range or handle that cannot
// exist, answered with the status the headers document for that.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "softhsa/api.h"
#include "softhsa/memory.h"

namespace softhsa::api {

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 1
namespace {
hsa_status_t ExportDmaBuf(const void* ptr, size_t size, const int* dmabuf,
                          const uint64_t* offset) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || dmabuf == nullptr || offset == nullptr || size == 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  // Inside one allocation: memory of an agent that cannot export it.
  return IsAllocated(ptr, size) ? HSA_STATUS_ERROR_INVALID_AGENT
                                : HSA_STATUS_ERROR_INVALID_ALLOCATION;
}
}  // namespace

hsa_status_t hsa_amd_portable_export_dmabuf(const void* ptr, size_t size,
                                            int* dmabuf, uint64_t* offset) {
  return ExportDmaBuf(ptr, size, dmabuf, offset);
}

// No dma-buf was ever exported: the descriptor is not one of the runtime's
// (and is left open: it belongs to someone else).
hsa_status_t hsa_amd_portable_close_dmabuf(int) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_ERROR_RESOURCE_FREE;
}
#endif

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 9
hsa_status_t hsa_amd_portable_export_dmabuf_v2(const void* ptr, size_t size,
                                               int* dmabuf, uint64_t* offset,
                                               uint64_t) {
  return ExportDmaBuf(ptr, size, dmabuf, offset);
}
#endif

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
namespace {
// A reservation or a handle: what ROCR answers with the API unsupported.
// (A size of 0 is refused with the same status before the support check.)
hsa_status_t Unsupported() {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
// A call on an address range: its arguments, then `none` (no range is
// reserved or mapped).
hsa_status_t NoRange(const void* va, bool bad_arguments, hsa_status_t none) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (va == nullptr || bad_arguments) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return none;
}
}  // namespace

hsa_status_t hsa_amd_vmem_address_reserve(void** va, size_t, uint64_t,
                                          uint64_t) {
  if (va != nullptr) *va = nullptr;
  return Unsupported();
}

hsa_status_t hsa_amd_vmem_address_free(void* va, size_t size) {
  return NoRange(va, size == 0, HSA_STATUS_ERROR_INVALID_ALLOCATION);
}

hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t, size_t,
                                        hsa_amd_memory_type_t, uint64_t,
                                        hsa_amd_vmem_alloc_handle_t* handle) {
  if (handle != nullptr) handle->handle = 0;
  return Unsupported();
}

hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_map(void* va, size_t size, size_t,
                              hsa_amd_vmem_alloc_handle_t, uint64_t) {
  return NoRange(va, size == 0, HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_amd_vmem_unmap(void* va, size_t size) {
  return NoRange(va, size == 0, HSA_STATUS_ERROR_INVALID_ALLOCATION);
}

hsa_status_t hsa_amd_vmem_set_access(void* va, size_t size,
                                     const hsa_amd_memory_access_desc_t* desc,
                                     size_t desc_cnt) {
  return NoRange(va, size == 0 || desc == nullptr || desc_cnt == 0,
                 HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_amd_vmem_get_access(void* va, hsa_access_permission_t* perms,
                                     hsa_agent_t) {
  return NoRange(va, perms == nullptr, HSA_STATUS_ERROR_INVALID_ALLOCATION);
}

hsa_status_t hsa_amd_vmem_export_shareable_handle(int* dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t,
                                                  uint64_t) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (dmabuf_fd == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_import_shareable_handle(
    int dmabuf_fd, hsa_amd_vmem_alloc_handle_t* handle) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (handle == nullptr || dmabuf_fd < 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t*,
                                              void* addr) {
  return NoRange(addr, false, HSA_STATUS_ERROR_INVALID_ALLOCATION);
}
#endif

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 6
hsa_status_t hsa_amd_vmem_address_reserve_align(void** va, size_t, uint64_t,
                                                uint64_t, uint64_t) {
  if (va != nullptr) *va = nullptr;
  return Unsupported();
}
#endif

}  // namespace softhsa::api
