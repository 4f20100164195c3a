#include "softhsa/amdgpu_code_object.h"

#include <elf.h>

#include <algorithm>
#include <cstring>

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif

namespace softhsa {
namespace {

constexpr uint64_t kMaxImage = uint64_t{1} << 32;  // a sanity bound

bool InRange(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace

bool IsAmdgpuElf(const uint8_t* bytes, size_t size) {
  if (bytes == nullptr || size < sizeof(Elf64_Ehdr)) return false;
  Elf64_Ehdr eh;
  memcpy(&eh, bytes, sizeof(eh));
  return memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
         eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_machine == EM_AMDGPU;
}

bool ReadAmdgpuCodeObject(const uint8_t* bytes, size_t size,
                          AmdgpuCodeObject* out) {
  if (!IsAmdgpuElf(bytes, size)) return false;
  Elf64_Ehdr eh;
  memcpy(&eh, bytes, sizeof(eh));
  if (eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_DYN ||
      eh.e_phentsize != sizeof(Elf64_Phdr) ||
      eh.e_shentsize != sizeof(Elf64_Shdr) ||
      !InRange(eh.e_phoff, uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), size) ||
      !InRange(eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr), size)) {
    return false;
  }
  // The image: every PT_LOAD at its virtual address.
  uint64_t end = 0;
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    memcpy(&ph, bytes + eh.e_phoff + i * sizeof(ph), sizeof(ph));
    if (ph.p_type != PT_LOAD) continue;
    if (ph.p_filesz > ph.p_memsz || !InRange(ph.p_offset, ph.p_filesz, size) ||
        ph.p_vaddr > kMaxImage || ph.p_memsz > kMaxImage - ph.p_vaddr) {
      return false;
    }
    end = std::max(end, ph.p_vaddr + ph.p_memsz);
  }
  out->image.assign(end, 0);
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    memcpy(&ph, bytes + eh.e_phoff + i * sizeof(ph), sizeof(ph));
    if (ph.p_type != PT_LOAD || ph.p_filesz == 0) continue;
    memcpy(out->image.data() + ph.p_vaddr, bytes + ph.p_offset, ph.p_filesz);
  }
  auto section = [&](size_t i) {
    Elf64_Shdr sh;
    memcpy(&sh, bytes + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof(sh));
    return sh;
  };
  // .symtab has every global; a stripped object keeps .dynsym.
  int table = -1;
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    uint32_t type = section(i).sh_type;
    if (type == SHT_SYMTAB) table = static_cast<int>(i);
    if (type == SHT_DYNSYM && table < 0) table = static_cast<int>(i);
  }
  if (table < 0) return true;  // no symbols: loads, defines nothing
  Elf64_Shdr sym = section(table);
  if (sym.sh_link >= eh.e_shnum || !InRange(sym.sh_offset, sym.sh_size, size)) {
    return false;
  }
  Elf64_Shdr str = section(sym.sh_link);
  if (!InRange(str.sh_offset, str.sh_size, size)) return false;
  const char* strtab = reinterpret_cast<const char*>(bytes + str.sh_offset);
  for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sym.sh_size;
       off += sizeof(Elf64_Sym)) {
    Elf64_Sym s;
    memcpy(&s, bytes + sym.sh_offset + off, sizeof(s));
    unsigned bind = ELF64_ST_BIND(s.st_info);
    if (ELF64_ST_TYPE(s.st_info) != STT_OBJECT || s.st_shndx == SHN_UNDEF ||
        (bind != STB_GLOBAL && bind != STB_WEAK) || s.st_name >= str.sh_size) {
      continue;
    }
    std::string name(strtab + s.st_name,
                     strnlen(strtab + s.st_name, str.sh_size - s.st_name));
    if (name.empty() || s.st_value > out->image.size() ||
        s.st_size > out->image.size() - s.st_value) {
      continue;
    }
    bool kernel = s.st_size == 64 && name.size() > 3 &&
                  name.compare(name.size() - 3, 3, ".kd") == 0;
    out->symbols.push_back(AmdgpuSymbol{name, kernel, s.st_value, s.st_size});
  }
  return true;
}

}  // namespace softhsa
