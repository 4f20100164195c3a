// roctracer_get_gpu_activity_stats_expl (roctracer_ext.h): the GPU half's
// counters for tools and tests.
#include <roctracer_ext.h>

#include "runtime/activity/error.h"
#include "runtime/private/gpu_events.h"

extern "C" ROCTRACER_API roctracer_status_t
roctracer_get_gpu_activity_stats_expl(roctracer_gpu_activity_stats_t* stats) {
  if (stats == nullptr) {
    return roctracer::activity::Fail(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT,
                                     "stats is NULL");
  }
  const roctracer::gpu::GpuStats s = roctracer::gpu::Stats();
  stats->dispatches = s.dispatches;
  stats->barriers = s.barriers;
  stats->copies = s.copies;
  stats->untraced = s.untraced;
  stats->names_unresolved = s.names_unresolved;
  stats->incomplete = s.incomplete;
  stats->failed_copies = s.failed_copies;
  stats->in_flight = s.in_flight;
  return ROCTRACER_STATUS_SUCCESS;
}
