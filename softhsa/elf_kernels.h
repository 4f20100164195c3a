// Reads the names of the functions a host ELF shared library exports.
#ifndef SOFTHSA_ELF_KERNELS_H_
#define SOFTHSA_ELF_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace softhsa {

// False when `bytes` is not a well-formed x86-64 ELF shared object; else the
// defined, default-visibility global/weak function symbols of its dynamic
// symbol table (its kernels), without _init/_fini.
bool ExportedFunctions(const uint8_t* bytes, size_t size,
                       std::vector<std::string>* names);

}  // namespace softhsa

#endif  // SOFTHSA_ELF_KERNELS_H_
