#include "runtime/activity/error.h"

#include <cstdarg>
#include <cstdio>

namespace roctracer::activity {
namespace {

thread_local char t_last_error[256] = "";

const char* StatusName(roctracer_status_t status) {
  switch (status) {
    case ROCTRACER_STATUS_SUCCESS:
      return "success";
    case ROCTRACER_STATUS_ERROR:
      return "error";
    case ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID:
      return "invalid domain ID";
    case ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT:
      return "invalid argument";
    case ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED:
      return "default pool undefined";
    case ROCTRACER_STATUS_ERROR_DEFAULT_POOL_ALREADY_DEFINED:
      return "default pool already defined";
    case ROCTRACER_STATUS_ERROR_MEMORY_ALLOCATION:
      return "memory allocation error";
    case ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID:
      return "mismatched external correlation ID";
    case ROCTRACER_STATUS_ERROR_NOT_IMPLEMENTED:
      return "not implemented";
    default:
      return "unknown status";
  }
}

}  // namespace

roctracer_status_t Fail(roctracer_status_t status, const char* format, ...) {
  int n = std::snprintf(t_last_error, sizeof(t_last_error),
                        "%s: ", StatusName(status));
  if (n < 0) n = 0;
  if (static_cast<size_t>(n) < sizeof(t_last_error)) {
    va_list args;
    va_start(args, format);
    std::vsnprintf(t_last_error + n, sizeof(t_last_error) - n, format, args);
    va_end(args);
  }
  return status;
}

const char* LastError() noexcept { return t_last_error; }

}  // namespace roctracer::activity
