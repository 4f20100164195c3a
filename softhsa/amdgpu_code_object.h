// Reads an AMDGPU code object (the ELF a GPU compiler writes, EM_AMDGPU,
// code object v3+): the image its loadable segments form and its symbols,
// so that softhsa loads it as ROCR's loader does, except that nothing in it
// ever executes (a kernel runs its host twin, see twins.h).
#ifndef SOFTHSA_AMDGPU_CODE_OBJECT_H_
#define SOFTHSA_AMDGPU_CODE_OBJECT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace softhsa {

struct AmdgpuSymbol {
  std::string name;  // as in the ELF: a kernel's is its descriptor, "f.kd"
  bool kernel;       // a kernel descriptor (else a variable)
  uint64_t vaddr;    // offset in the image
  uint64_t size;
};

struct AmdgpuCodeObject {
  // PT_LOAD segments placed at their p_vaddr, the rest zero.
  std::vector<uint8_t> image;
  std::vector<AmdgpuSymbol> symbols;
};

// Whether `bytes` start like an AMDGPU ELF (class 64, EM_AMDGPU).
bool IsAmdgpuElf(const uint8_t* bytes, size_t size);

// False when `bytes` is not a well-formed AMDGPU shared object (bounds of
// headers, segments and symbol tables are checked). Symbols are the
// defined global/weak objects of its .symtab (or .dynsym when stripped);
// kernel descriptors are the 64-byte ones named "*.kd".
bool ReadAmdgpuCodeObject(const uint8_t* bytes, size_t size,
                          AmdgpuCodeObject* out);

}  // namespace softhsa

#endif  // SOFTHSA_AMDGPU_CODE_OBJECT_H_
