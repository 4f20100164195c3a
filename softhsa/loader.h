// Code objects are host ELF shared libraries; each function they export is
// a kernel (see softhsa/README.md). AMDGPU code objects load too: their
// kernels run their host twins (twins.h). A kernel's kernel object (what a
// dispatch packet carries) is the address of its Kernel record, which lives in
// its loaded code object's segment, so the loader extension maps it back to the
// code object and executable as ROCR maps a kernel descriptor.
#ifndef SOFTHSA_LOADER_H_
#define SOFTHSA_LOADER_H_

#include <cstdint>
#include <string>

#include "softhsa/runtime.h"

namespace softhsa {

using KernelFn = void (*)(const void* kernarg_address,
                          const hsa_kernel_dispatch_packet_t* packet,
                          uint32_t workgroup_x, uint32_t workgroup_y,
                          uint32_t workgroup_z);

struct Kernel {
  KernelFn fn;  // nullptr: an AMDGPU kernel without a host twin (a no-op)
  uint32_t kernarg_size;
  uint32_t group_size;
  uint32_t private_size;
  const char* name;  // without ".kd"; lives as long as the process
};

// The kernel whose kernel object is `object`, or nullptr. Safe to call while
// executables are created and destroyed.
bool FindKernel(uint64_t object, Kernel* out);

hsa_ven_amd_loader_1_03_pfn_t LoaderTable();

}  // namespace softhsa

#endif  // SOFTHSA_LOADER_H_
