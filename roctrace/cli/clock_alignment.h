// `roctrace merge` puts MPI ranks on rank 0's clock: a rank's database
// records its clock's offset against rank 0's, measured at MPI_Init and at
// MPI_Finalize (metadata roctrace.clock.{init,finalize}_{local,offset,
// uncertainty}_ns, tool/mpi_clock.cc); its timestamps are shifted by the
// offset, interpolated linearly between the two measurements (a clock
// drifting at a steady rate is followed) and held at the nearer one outside
// them.
#ifndef ROCTRACE_CLI_CLOCK_ALIGNMENT_H_
#define ROCTRACE_CLI_CLOCK_ALIGNMENT_H_

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace roctrace {

struct ClockAlignment {
  bool measured = false;  // the database has an offset to apply
  int64_t init_offset_ns = 0, finalize_offset_ns = 0;
  uint64_t uncertainty_ns = 0;  // the larger of the two measurements'
};

// Shifts every timestamp column (start, end, timestamp, init, fini) of the
// merged copies of one input's tables (names ending in `suffix`) by the
// offset its metadata table records, and notes what was applied in that
// metadata table (roctrace.merge.clock_offset_ns,
// roctrace.merge.clock_uncertainty_ns). False with `*error` set on an SQL
// failure; a database without offsets is left as it is.
bool AlignClock(sqlite3* db, const std::string& suffix, ClockAlignment* out,
                std::string* error);

}  // namespace roctrace

#endif  // ROCTRACE_CLI_CLOCK_ALIGNMENT_H_
