// One rank's clock against a reference rank's, measured by ping-pong as
// OTF2/Score-P tools measure it: the local clock is read before a request
// (t0) and after the reference's answer (t1), the answer holding the
// reference clock's reading `remote`; the reference read it at some moment
// between t0 and t1, so remote - (t0 + t1) / 2 is the offset to within half
// the round trip. Of several round trips the shortest is the best bound.
#ifndef ROCTRACE_TOOL_CLOCK_OFFSET_H_
#define ROCTRACE_TOOL_CLOCK_OFFSET_H_

#include <cstdint>
#include <vector>

namespace roctrace {

struct RoundTrip {
  uint64_t t0;      // local clock, request sent
  uint64_t remote;  // reference clock, when it answered
  uint64_t t1;      // local clock, answer received
};

struct ClockOffset {
  bool valid = false;
  // Reference time = local time + offset_ns, within +/- uncertainty_ns.
  int64_t offset_ns = 0;
  uint64_t uncertainty_ns = 0;
  uint64_t local_ns = 0;  // the local time the offset was measured at
};

// The offset from the round trip with the shortest round-trip time; not
// valid when there is none (or every one has t1 < t0).
inline ClockOffset BestOffset(const std::vector<RoundTrip>& trips) {
  ClockOffset best;
  for (const RoundTrip& t : trips) {
    if (t.t1 < t.t0) continue;
    const uint64_t rtt = t.t1 - t.t0;
    if (best.valid && (rtt + 1) / 2 >= best.uncertainty_ns) continue;
    const uint64_t mid = t.t0 + rtt / 2;
    best.valid = true;
    best.offset_ns = static_cast<int64_t>(t.remote - mid);
    // The half round trip, rounded up: the true offset is within it.
    best.uncertainty_ns = (rtt + 1) / 2;
    best.local_ns = mid;
  }
  return best;
}

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_CLOCK_OFFSET_H_
