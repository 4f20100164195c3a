#include "runtime/platform/asymmetric_fence.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace roctracer::platform {

std::atomic<bool> g_heavy_fence_available{false};

bool InitAsymmetricFence() noexcept {
  // Decided once, before any pool or SDK delivery exists: flipping it later
  // while a frequent side sits between its two operations would break the
  // pattern.
  static const bool available = [] {
#if defined(__SANITIZE_THREAD__)
    return false;
#else
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
    if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) {
      return false;
    }
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) !=
        0) {
      return false;
    }
    g_heavy_fence_available.store(true, std::memory_order_relaxed);
    return true;
#endif
  }();
  return available;
}

void HeavyFence() noexcept {
  if (g_heavy_fence_available.load(std::memory_order_relaxed)) {
    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0);
  }
}

}  // namespace roctracer::platform
