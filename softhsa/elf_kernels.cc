#include "softhsa/elf_kernels.h"

#include <elf.h>

#include <cstring>

namespace softhsa {

bool ExportedFunctions(const uint8_t* bytes, size_t size,
                       std::vector<std::string>* names) {
  if (bytes == nullptr || size < sizeof(Elf64_Ehdr)) return false;
  Elf64_Ehdr eh;
  memcpy(&eh, bytes, sizeof(eh));
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_DYN ||
      eh.e_machine != EM_X86_64 || eh.e_shentsize != sizeof(Elf64_Shdr)) {
    return false;
  }
  if (eh.e_shoff > size ||
      eh.e_shnum > (size - eh.e_shoff) / sizeof(Elf64_Shdr)) {
    return false;
  }
  auto section = [&](size_t i) {
    Elf64_Shdr sh;
    memcpy(&sh, bytes + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof(sh));
    return sh;
  };
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sym = section(i);
    if (sym.sh_type != SHT_DYNSYM) continue;
    if (sym.sh_link >= eh.e_shnum || sym.sh_offset > size ||
        sym.sh_size > size - sym.sh_offset) {
      return false;
    }
    Elf64_Shdr str = section(sym.sh_link);
    if (str.sh_offset > size || str.sh_size > size - str.sh_offset)
      return false;
    const char* strtab = reinterpret_cast<const char*>(bytes + str.sh_offset);
    for (size_t off = 0; off + sizeof(Elf64_Sym) <= sym.sh_size;
         off += sizeof(Elf64_Sym)) {
      Elf64_Sym s;
      memcpy(&s, bytes + sym.sh_offset + off, sizeof(s));
      unsigned bind = ELF64_ST_BIND(s.st_info);
      if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
          (bind != STB_GLOBAL && bind != STB_WEAK) ||
          ELF64_ST_VISIBILITY(s.st_other) != STV_DEFAULT ||
          s.st_name >= str.sh_size) {
        continue;
      }
      std::string name(strtab + s.st_name,
                       strnlen(strtab + s.st_name, str.sh_size - s.st_name));
      if (name.empty() || name == "_init" || name == "_fini") continue;
      names->push_back(name);
    }
    return true;
  }
  return false;  // no dynamic symbol table: not a shared library
}

}  // namespace softhsa
