// SOFTHSA_FAULTS: comma-separated key=value pairs that make the runtime fail
// on purpose, so a tool's error paths run deterministically:
//   dispatch_error=N     the Nth kernel dispatch since hsa_init (from 1) stops
//                        its queue: the queue's error callback gets
//                        HSA_STATUS_ERROR_EXCEPTION, its completion signal is
//                        never decremented (as a faulting GPU queue)
//   dispatch_delay_us=D  every dispatch and barrier completes D µs late
//   queue_delay=Q:D      completions of the queue with id Q (ids count from 0
//                        at hsa_init) are D µs late,
//                        so other queues' later work completes first
//   drop_queue=N         the Nth kernel dispatch's queue silently stops: no
//                        callback, nothing after it completes
//   copy_error=N         the Nth non-empty async copy fails: its completion
//                        signal is set to -1 instead of decremented, nothing
//                        is copied
//   copy_delay_us=D      every non-empty async copy completes D µs late
//   host_address_error=1 hsa_ven_amd_loader_query_host_address fails
//                        (HSA_STATUS_ERROR_INVALID_ARGUMENT) for every
//                        address, as for one in no loaded segment
// Unknown keys and malformed values are reported on stderr and ignored.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "softhsa/runtime.h"

namespace softhsa {
namespace {
Faults g_faults;
}

const Faults& GetFaults() { return g_faults; }

void ReadFaults() {
  g_faults = Faults{};
  const char* env = getenv("SOFTHSA_FAULTS");
  if (env == nullptr) return;
  std::string all = env;
  size_t pos = 0;
  while (pos <= all.size()) {
    size_t end = all.find(',', pos);
    if (end == std::string::npos) end = all.size();
    std::string item = all.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    char* rest = nullptr;
    unsigned long long v = strtoull(value.c_str(), &rest, 10);
    bool ok = !value.empty() && rest != value.c_str();
    if (ok && key == "queue_delay" && *rest == ':') {
      const char* d = rest + 1;
      unsigned long long us = strtoull(d, &rest, 10);
      if (rest != d && *rest == '\0') {
        g_faults.delay_queue_id = v + 1;
        g_faults.delay_queue_us = us;
        continue;
      }
    } else if (ok && *rest == '\0') {
      if (key == "dispatch_error") {
        g_faults.dispatch_error_at = v;
        continue;
      }
      if (key == "dispatch_delay_us") {
        g_faults.dispatch_delay_us = v;
        continue;
      }
      if (key == "drop_queue") {
        g_faults.drop_queue_at = v;
        continue;
      }
      if (key == "copy_error") {
        g_faults.copy_error_at = v;
        continue;
      }
      if (key == "copy_delay_us") {
        g_faults.copy_delay_us = v;
        continue;
      }
      if (key == "host_address_error") {
        g_faults.host_address_error = v != 0;
        continue;
      }
    }
    fprintf(stderr, "softhsa: SOFTHSA_FAULTS: ignoring '%s'\n", item.c_str());
  }
}

}  // namespace softhsa
