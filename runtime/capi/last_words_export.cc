#include "runtime/private/last_words_export.h"

#include "runtime/activity/pool_registry.h"
#include "runtime/platform/fatal_signal.h"

extern "C" bool roctracer_internal_on_fatal_signal(void (*fn)(void* arg),
                                                   void* arg) {
  // The pools' flush goes first, so the tool's buffer callbacks have
  // delivered everything before it finishes its files.
  roctracer::activity::FlushPoolsAtFatalSignal();
  return roctracer::fatal_signal::AddLastWords(fn, arg);
}
