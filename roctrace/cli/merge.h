// `roctrace merge -o OUT.db IN.db...`: one rocpd database from the databases
// of several processes or ranks, laid out as rocprofv3 lays out a multi-
// process database: each input's tables under a per-process suffix, the
// rocpd_* names as views over all of them, and the data views on top.
#ifndef ROCTRACE_CLI_MERGE_H_
#define ROCTRACE_CLI_MERGE_H_

#include <string>
#include <vector>

namespace roctrace {

// `args` follow "merge". Returns the exit status (0, 1 for a bad input or
// output file, 2 for a bad command line); messages go to stderr.
int RunMerge(const std::vector<std::string>& args);

}  // namespace roctrace

#endif  // ROCTRACE_CLI_MERGE_H_
