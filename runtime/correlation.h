// Correlation IDs tie a traced API call's callbacks and activity records
// together. One process-wide counter starting at 1 (0 means "none"), and a
// per-thread stack of the calls in progress so a call made inside another
// (HIP calling HSA, a callback calling a traced API) gets its own ID and knows
// its parent's.
#ifndef RUNTIME_CORRELATION_H_
#define RUNTIME_CORRELATION_H_

#include <cstdint>

namespace roctracer {

// A fresh ID; never 0, unique in the process.
uint64_t NextCorrelationId() noexcept;

// The innermost call in progress on this thread, or 0.
uint64_t CurrentCorrelationId() noexcept;

// One traced call on this thread, from ENTER to EXIT. Scopes nest strictly
// (they live on the stack of the intercepting wrapper), so the per-thread stack
// is a linked list through them: no allocation, no depth limit.
class CorrelationScope {
 public:
  CorrelationScope() noexcept;
  ~CorrelationScope();
  CorrelationScope(const CorrelationScope&) = delete;
  CorrelationScope& operator=(const CorrelationScope&) = delete;

  uint64_t id() const noexcept { return id_; }
  // ID of the enclosing call on this thread, 0 for an outermost call.
  uint64_t parent() const noexcept { return parent_; }

 private:
  uint64_t id_;
  uint64_t parent_;
  CorrelationScope* enclosing_;
};

}  // namespace roctracer

#endif  // RUNTIME_CORRELATION_H_
