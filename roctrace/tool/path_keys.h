// rocprofv3's output path keys (its "output prefix keys"), expanded the
// same way by the command (to check the paths before the program starts)
// and by the tool in the program (to name its files).
#ifndef ROCTRACE_TOOL_PATH_KEYS_H_
#define ROCTRACE_TOOL_PATH_KEYS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace roctrace {

// Expands rocprofv3's path keys, each as %key% or {key}:
// - the process: %pid%, %ppid%, %pgid%, %psid% (of `pid`), %psize% (the
//   children of `ppid`), %hostname%;
// - MPI and batch systems: %rank%, %size%, %job% (from the launcher's
//   environment; 0, or 1 for the size, when none), %nid% (%rank% under a
//   launcher, else %pid%);
// - the command line `command` (the program's argv): %argv% (every word),
//   %args% (the arguments), %tag% (the program's basename), %argt% (the tag
//   then the arguments: rocprofv3 joins the tag and the first argument
//   without a separator), %arg<N>% (word N; removed with the '-', '/', '_'
//   after it when there is no word N). Words have '/' made '_' and their
//   leading '.' and '_' removed;
// - %launch_date%, %launch_time%: ROCPROF_DATE_FORMAT (default "%F") and
//   ROCPROF_TIME_FORMAT (default "%F_%H.%M") of the launch time,
//   ROCTRACE_LAUNCH_TIME (seconds since the epoch, set by roctrace so that
//   every process of a run agrees) or else this process's first call;
// - %env{NAME}%, %ENV{NAME}%, $env{NAME}, $ENV{NAME}, %q{NAME}: the
//   variable, with leading blanks and '/' removed and the others made '_';
// - shorthands %h %p %j %r %s: hostname, pid, job, rank, size.
// Unknown keys are kept as written.
std::string ExpandPathKeys(
    const std::string& pattern, uint32_t pid, uint32_t ppid,
    const std::string& hostname,
    const std::function<const char*(const char*)>& getenv,
    const std::vector<std::string>& command = {});

// The output prefix of a process: `dir` + "/" + `file`, keys expanded
// (`%cwd%` is `base_dir`); a relative directory is taken from `base_dir`
// (the directory roctrace started in, so that it never follows the
// program's chdir), an absolute `file` is the whole prefix (a path join).
std::string OutputPrefix(const std::string& dir, const std::string& file,
                         const std::string& base_dir, uint32_t pid,
                         uint32_t ppid, const std::string& hostname,
                         const std::function<const char*(const char*)>& getenv,
                         const std::vector<std::string>& command = {});

// A process's command line from its /proc/<pid>/cmdline (empty when it
// cannot be read).
std::vector<std::string> ProcessCommandLine(const std::string& path);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_PATH_KEYS_H_
