#ifndef SOFTHSA_MEMORY_H_
#define SOFTHSA_MEMORY_H_

#include <cstddef>

namespace softhsa {
// Whether [ptr, ptr+size) lies in one allocation or locked range.
bool IsAllocated(const void* ptr, size_t size);
}  // namespace softhsa

#endif  // SOFTHSA_MEMORY_H_
