// Where an output that cannot be created or written is reported: on stderr
// the moment it happens, and in the command's status file (the path in
// ROCTRACE_STATUS_FILE, which `roctrace` reads once the program has ended)
// so that roctrace's own exit status says outputs were lost, even when the
// program is killed before its outputs are finished.
#ifndef ROCTRACE_WRITERS_OUTPUT_FAILURES_H_
#define ROCTRACE_WRITERS_OUTPUT_FAILURES_H_

#include <string>

namespace roctrace {

// The status file to append failures to; empty: stderr only. Set once at
// start, before any writer runs.
void SetOutputStatusFile(const std::string& path);

// Prints "roctrace: pid N: <what>" on stderr and appends the same line to
// the status file (opened, appended and closed each time: the program may
// close every descriptor it did not open). Thread-safe.
void ReportOutputFailure(const std::string& what);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_OUTPUT_FAILURES_H_
