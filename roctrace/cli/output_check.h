// Checks, before the program starts, that every file the run will write for
// it can be created: the output directory and the prefix's own directories
// are created (mkdir -p) and each file name is tried in them, so a bad path
// (a file in the way, no permission, a directory that cannot exist such as
// one under /proc, a name too long) is an error before anything runs.
#ifndef ROCTRACE_CLI_OUTPUT_CHECK_H_
#define ROCTRACE_CLI_OUTPUT_CHECK_H_

#include <string>
#include <vector>

#include "roctrace/cli/options.h"

namespace roctrace {

// The name endings of the files the options make (a format's
// `_results.db`, every CSV the run may write, the database's journal); none
// but `_config.json` (with --output-config) when nothing is traced.
std::vector<std::string> OutputSuffixes(const Options& options);

// `prefix` is the program's expanded output prefix (directory and file, as
// the tool will form it). Creates its directories and tries every
// `prefix + suffix` (created and removed again when it did not exist; an
// existing file must be writable). False with `*problem` set when a file
// cannot be; the directories it created are then removed again.
bool CheckOutputs(const std::string& prefix,
                  const std::vector<std::string>& suffixes,
                  std::string* problem);

}  // namespace roctrace

#endif  // ROCTRACE_CLI_OUTPUT_CHECK_H_
