#include "runtime/intercept/trace_guard.h"

#include <cstring>

#include "api_domain_tables.h"
#include "runtime/activity/correlation.h"
#include "runtime/intercept/traced_call.h"

namespace roctracer::hook {

ROCTRACER_HOT_TLS ThreadState t_thread_state = {};

}  // namespace roctracer::hook

namespace roctracer {
namespace {

using hook::TracedCall;

const TracedCall* InnermostTracedCall() noexcept {
  return static_cast<const TracedCall*>(hook::Thread().top);
}

// The stream argument of a call, if its API takes one (the domain's
// generated StreamArg).
bool StreamOf(const TracedCall& call, uint64_t* stream) noexcept {
  const void* address = nullptr;
  const bool takes = hook::VisitApiDomain(
      call.info.domain,
      [&](auto d) {
        using D = decltype(d);
        return D::StreamArg(
                   call.info.op,
                   static_cast<const typename D::Data*>(call.info.api_data),
                   &address) == D::kStreamArgUse;
      },
      [] { return false; });
  if (!takes) return false;
  // A stream handle stored in the call's data on the stub's stack.
  std::memcpy(stream, address, sizeof(*stream));
  return true;
}

}  // namespace

uint64_t FreshCorrelationId() noexcept { return activity::NextCorrelationId(); }

bool InnermostCallOf(uint32_t domain, uint32_t* op, uint64_t* id) noexcept {
  for (const TracedCall* call = InnermostTracedCall(); call != nullptr;
       call = call->enclosing) {
    if (call->info.domain == domain) {
      *op = call->info.op;
      *id = call->info.correlation_id;
      return true;
    }
  }
  return false;
}

uint64_t InnermostStream() noexcept {
  uint64_t stream = 0;
  for (const TracedCall* call = InnermostTracedCall(); call != nullptr;
       call = call->enclosing) {
    if (StreamOf(*call, &stream)) return stream;
  }
  return 0;
}

}  // namespace roctracer
