#ifndef SOFTHSA_MEMORY_H_
#define SOFTHSA_MEMORY_H_

#include <cstddef>

namespace softhsa {
// Whether [ptr, ptr+size) lies in one allocation or locked range.
bool IsAllocated(const void* ptr, size_t size);
// Bytes allocated from a pool and not yet freed.
size_t AllocatedFrom(const struct Pool* pool);
}  // namespace softhsa

#endif  // SOFTHSA_MEMORY_H_
