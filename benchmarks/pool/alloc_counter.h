// Heap allocations made by the calling thread, counted by interposing
// malloc and friends in the benchmark binary (alloc_counter.cc).
#ifndef BENCHMARKS_POOL_ALLOC_COUNTER_H_
#define BENCHMARKS_POOL_ALLOC_COUNTER_H_

#include <cstdint>

namespace roctracer {
namespace bench {

uint64_t ThreadAllocations() noexcept;

}  // namespace bench
}  // namespace roctracer

#endif  // BENCHMARKS_POOL_ALLOC_COUNTER_H_
