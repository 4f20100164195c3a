// The per-thread "last error" behind roctracer_error_string().
#ifndef RUNTIME_ACTIVITY_ERROR_H_
#define RUNTIME_ACTIVITY_ERROR_H_

#include <roctracer.h>

namespace roctracer::activity {

// Records a printf-style message as the calling thread's last error and
// returns `status`, so API functions can `return Fail(...)`.
roctracer_status_t Fail(roctracer_status_t status, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// The calling thread's last error message; "" when there was none. Storage is
// thread-local so concurrent failures never garble each other's text and the
// caller never has to free it.
const char* LastError() noexcept;

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_ERROR_H_
