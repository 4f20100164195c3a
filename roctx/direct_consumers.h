// Consumers that register with libroctx64 itself rather than through a
// tracer (runtime/private/roctx_link.h): ROCm 5.2.3's per-operation
// RegisterApiCallback / RemoveApiCallback and its RangeStackIterate, and
// ROCm 5.3+'s roctxRegisterTracerCallback (the hook ROCm's own
// libroctracer64 installs). Each is told about every annotation as
// (ACTIVITY_DOMAIN_ROCTX, roctx_api_id_t, roctx_api_data_t*), the same data a
// roctracer callback gets. A rocTX call made inside one of these callbacks is
// not delivered to them again (no recursion); a tracer still sees it.
#ifndef ROCTX_DIRECT_CONSUMERS_H_
#define ROCTX_DIRECT_CONSUMERS_H_

#include <atomic>
#include <cstdint>

namespace roctx_direct {

// Non-zero once any direct consumer has registered: the annotation path
// tests it (one relaxed load) before calling Deliver.
extern std::atomic<uint8_t> g_registered;

// Tells the direct consumers about one annotation. `level` is the nesting
// level a push opened or a pop closed (0-based; -1 for a pop with no open
// range), else 0; it keeps the per-thread range stacks RangeStackIterate
// reports.
void Deliver(uint32_t op, const char* message, uint64_t id, int level);

}  // namespace roctx_direct

#endif  // ROCTX_DIRECT_CONSUMERS_H_
