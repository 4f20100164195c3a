// The AMDHSA metadata of an AMDGPU code object (code object v3+: the
// NT_AMDGPU_METADATA note, a MessagePack map, as LLVM's AMDGPUUsage
// describes it): each kernel's explicit arguments, by name, offset and size,
// as the compiler laid them out in the kernarg segment. softhsa's twins of
// HIP's blit kernels use them to tell the layouts of HIP releases apart.
#ifndef SOFTHSA_AMDGPU_METADATA_H_
#define SOFTHSA_AMDGPU_METADATA_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace softhsa {

struct KernelArg {
  std::string name;  // empty for an unnamed or hidden argument
  std::string value_kind;
  uint64_t offset = 0;
  uint64_t size = 0;
};

// Kernel name (the metadata's ".name", without ".kd") -> its arguments in
// order (hidden ones included, with their ".value_kind").
using KernelArgs = std::map<std::string, std::vector<KernelArg>>;

// The arguments of every kernel the note describes; empty when `bytes` has
// no readable AMDGPU metadata note (an ELF that is not checked here: the
// caller has validated its headers).
KernelArgs ReadKernelArgs(const uint8_t* bytes, size_t size);

}  // namespace softhsa

#endif  // SOFTHSA_AMDGPU_METADATA_H_
