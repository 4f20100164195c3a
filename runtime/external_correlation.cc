#include "runtime/external_correlation.h"

#include <vector>

namespace roctracer {
namespace {

// The top lives in trivially-initialised thread-locals so the common "stack is
// empty" check never touches the vector (no TLS guard, no allocation).
thread_local uint32_t t_depth = 0;
thread_local uint64_t t_top = 0;
thread_local std::vector<uint64_t> t_below;

}  // namespace

void PushExternalId(uint64_t id) {
  if (t_depth > 0) t_below.push_back(t_top);
  t_top = id;
  ++t_depth;
}

bool PopExternalId(uint64_t* id) noexcept {
  if (t_depth == 0) return false;
  *id = t_top;
  --t_depth;
  if (t_depth > 0) {
    t_top = t_below.back();
    t_below.pop_back();
  } else {
    t_top = 0;
  }
  return true;
}

bool TopExternalId(uint64_t* id) noexcept {
  if (t_depth == 0) return false;
  *id = t_top;
  return true;
}

}  // namespace roctracer
