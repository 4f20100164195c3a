#include "sdk/internal_threading.h"

#include <mutex>
#include <vector>

#include "rocprofiler-sdk/internal_threading.h"

namespace rocprofiler_sdk {
namespace {

struct Notifier {
  rocprofiler_internal_thread_library_cb_t precreate;
  rocprofiler_internal_thread_library_cb_t postcreate;
  void* data;
};

std::mutex& NotifierMutex() {
  static auto* m = new std::mutex;  // never destroyed: threads start at exit
  return *m;
}

std::vector<Notifier>& Notifiers() {
  static auto* v = new std::vector<Notifier>;
  return *v;
}

}  // namespace

void NotifyInternalThread(ThreadCreation stage) noexcept {
  // Copied, then called without the lock: a callback may register another.
  std::vector<Notifier> now;
  try {
    std::lock_guard<std::mutex> lock(NotifierMutex());
    now = Notifiers();
  } catch (...) {
    return;
  }
  for (const Notifier& n : now) {
    auto fn = stage == ThreadCreation::kBefore ? n.precreate : n.postcreate;
    if (fn != nullptr) fn(ROCPROFILER_LIBRARY, n.data);
  }
}

}  // namespace rocprofiler_sdk

extern "C" {

// As rocprofiler-sdk: `libs` 0 means every library; callbacks may be NULL
// (that stage is not reported); always SUCCESS. The threads this library
// starts are all its own (ROCPROFILER_LIBRARY): registrations for the
// runtimes' libraries only are kept and never called.
ROCPROFILER_API rocprofiler_status_t rocprofiler_at_internal_thread_create(
    rocprofiler_internal_thread_library_cb_t precreate,
    rocprofiler_internal_thread_library_cb_t postcreate, int libs, void* data) {
  using namespace rocprofiler_sdk;
  if ((libs != 0 && (libs & ROCPROFILER_LIBRARY) == 0) ||
      (precreate == nullptr && postcreate == nullptr)) {
    return ROCPROFILER_STATUS_SUCCESS;  // nothing this library would call
  }
  try {
    std::lock_guard<std::mutex> lock(NotifierMutex());
    Notifiers().push_back(Notifier{precreate, postcreate, data});
  } catch (...) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
