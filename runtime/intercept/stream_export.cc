// roctracer_internal_stream_ops / roctracer_internal_created_stream
// (runtime/private/observer_export.h): which APIs take or create streams and
// the stream one created, from the generated StreamArg of each API domain, so
// that a tool outside the library numbers streams in the order they are
// created and can have the calls that name a stream traced.
#include <roctracer.h>

#include <cstdint>

#include "api_domain_tables.h"
#include "runtime/platform/readable_memory.h"
#include "runtime/private/observer_export.h"

namespace roctracer {
namespace {

// -1: no such domain or op; otherwise the domain's StreamUse. With `data`,
// also whether the call is at its EXIT and succeeded (*done): only then
// does a created stream's out-parameter hold one.
int StreamUse(uint32_t domain, uint32_t op, const void* data,
              const void** address, bool* done) {
  return hook::VisitApiDomain(
      domain,
      [&](auto d) {
        using D = decltype(d);
        if (op >= D::kCount) return -1;
        const auto* typed = static_cast<const typename D::Data*>(data);
        if (typed != nullptr && done != nullptr) {
          *done = typed->phase == ACTIVITY_API_PHASE_EXIT &&
                  D::ReturnedStatus(op, typed) == 0;
        }
        return static_cast<int>(D::StreamArg(op, typed, address));
      },
      [] { return -1; });
}

// Every domain's kStreamArg and kStreamCreated (one template generates them
// all).
constexpr int kTakes = 1;
constexpr int kCreated = 2;

}  // namespace
}  // namespace roctracer

extern "C" uint32_t roctracer_internal_stream_ops(uint32_t domain, bool created,
                                                  uint32_t* ops,
                                                  uint32_t capacity) {
  const int wanted = created ? roctracer::kCreated : roctracer::kTakes;
  uint32_t n = 0;
  for (uint32_t op = 0;; ++op) {
    const int use = roctracer::StreamUse(domain, op, nullptr, nullptr, nullptr);
    if (use < 0) break;
    if (use != wanted) continue;
    if (ops != nullptr && n < capacity) ops[n] = op;
    ++n;
  }
  return n;
}

extern "C" bool roctracer_internal_created_stream(uint32_t domain, uint32_t op,
                                                  const void* data,
                                                  uint64_t* stream) {
  if (data == nullptr || stream == nullptr) return false;
  const void* address = nullptr;
  bool done = false;
  if (roctracer::StreamUse(domain, op, data, &address, &done) !=
          roctracer::kCreated ||
      !done) {
    return false;
  }
  // The application's out-parameter: never trusted.
  uint64_t value = 0;
  if (address == nullptr ||
      !roctracer::platform::CopyIfReadable(&value, address, sizeof(value))) {
    return false;
  }
  *stream = value;
  return true;
}
