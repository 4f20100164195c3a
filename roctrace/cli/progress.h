// The status line on stderr while a run lasts: events written, bytes in the
// output files and events dropped, summed over every traced process, after
// the first few seconds, redrawn in place twice a second and erased at the
// end. Each process's tool writes its counts to a file of a directory
// (ROCTRACE_PROGRESS_DIR, one file per pid: "events bytes dropped"), which
// the line reads; it is shown only on a terminal.
#ifndef ROCTRACE_CLI_PROGRESS_H_
#define ROCTRACE_CLI_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace roctrace {

struct ProgressTotals {
  uint64_t processes = 0, events = 0, bytes = 0, dropped = 0;
};

// Sums the counts of a progress directory's files.
ProgressTotals ReadProgress(const std::string& dir);
// "roctrace: 12 s, 1234567 events, 85.2 MiB written, 0 dropped".
std::string FormatProgress(double seconds, const ProgressTotals& totals);

class ProgressLine {
 public:
  // Makes the directory (on /dev/shm where there is one); false when it
  // cannot be made (no line then).
  bool Create();
  const std::string& dir() const { return dir_; }
  // Draws on `fd` (a terminal) after `delay`, until Stop.
  void Start(int fd, std::chrono::milliseconds delay);
  // Stops drawing, erases the line, removes the directory.
  void Stop();
  ~ProgressLine() { Stop(); }

 private:
  void Run(int fd, std::chrono::milliseconds delay);

  std::string dir_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace roctrace

#endif  // ROCTRACE_CLI_PROGRESS_H_
