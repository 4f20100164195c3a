#include "runtime/external_correlation.h"

#include <vector>

#include "runtime/hot_tls.h"

namespace roctracer {

// The top lives in initial-exec thread-locals (hot_tls.h) so the check every
// activity record makes, "is an external ID pushed?", is one load and never
// touches the vector (no TLS guard, no allocation).
ROCTRACER_HOT_TLS uint32_t t_external_depth = 0;
ROCTRACER_HOT_TLS uint64_t t_external_top = 0;

namespace {
thread_local std::vector<uint64_t> t_below;
}  // namespace

void PushExternalId(uint64_t id) {
  if (t_external_depth > 0) t_below.push_back(t_external_top);
  t_external_top = id;
  ++t_external_depth;
}

bool PopExternalId(uint64_t* id) noexcept {
  if (t_external_depth == 0) return false;
  *id = t_external_top;
  --t_external_depth;
  if (t_external_depth > 0) {
    t_external_top = t_below.back();
    t_below.pop_back();
  } else {
    t_external_top = 0;
  }
  return true;
}

bool TopExternalId(uint64_t* id) noexcept {
  if (t_external_depth == 0) return false;
  *id = t_external_top;
  return true;
}

}  // namespace roctracer
