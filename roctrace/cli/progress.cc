#include "roctrace/cli/progress.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace roctrace {

ProgressTotals ReadProgress(const std::string& dir) {
  ProgressTotals totals;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return totals;
  while (dirent* e = readdir(d)) {
    // Only the pids' files, not one being replaced (".tmp").
    if (e->d_name[0] == '.' || std::strchr(e->d_name, '.') != nullptr) {
      continue;
    }
    unsigned long long events = 0, bytes = 0, dropped = 0;
    if (FILE* f = std::fopen((dir + "/" + e->d_name).c_str(), "re")) {
      if (std::fscanf(f, "%llu %llu %llu", &events, &bytes, &dropped) == 3) {
        ++totals.processes;
        totals.events += events;
        totals.bytes += bytes;
        totals.dropped += dropped;
      }
      std::fclose(f);
    }
  }
  closedir(d);
  return totals;
}

std::string FormatProgress(double seconds, const ProgressTotals& t) {
  char line[256];
  std::snprintf(line, sizeof(line),
                "roctrace: %llu s, %llu events, %.1f MiB written, %llu "
                "dropped",
                static_cast<unsigned long long>(seconds),
                static_cast<unsigned long long>(t.events),
                static_cast<double>(t.bytes) / (1024.0 * 1024.0),
                static_cast<unsigned long long>(t.dropped));
  std::string text = line;
  if (t.processes > 1) {
    text += " (" + std::to_string(t.processes) + " processes)";
  }
  return text;
}

bool ProgressLine::Create() {
  std::vector<std::string> bases = {"/dev/shm"};
  if (const char* tmp = std::getenv("TMPDIR")) bases.push_back(tmp);
  bases.push_back("/tmp");
  for (const std::string& base : bases) {
    std::string path = base + "/roctrace-progress-XXXXXX";
    if (mkdtemp(&path[0]) != nullptr) {
      dir_ = path;
      return true;
    }
  }
  return false;
}

void ProgressLine::Start(int fd, std::chrono::milliseconds delay) {
  thread_ = std::thread([this, fd, delay] { Run(fd, delay); });
}

void ProgressLine::Run(int fd, std::chrono::milliseconds delay) {
  const auto start = std::chrono::steady_clock::now();
  auto next = start + delay;
  bool drawn = false;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!cv_.wait_until(lock, next, [this] { return stop_; })) {
    lock.unlock();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    // Carriage return, the line, erase to its end: redrawn in place.
    const std::string text =
        "\r" + FormatProgress(seconds, ReadProgress(dir_)) + "\x1b[K";
    drawn = write(fd, text.data(), text.size()) > 0 || drawn;
    lock.lock();
    next += std::chrono::milliseconds(500);
  }
  if (drawn) {
    const char erase[] = "\r\x1b[K";
    if (write(fd, erase, sizeof(erase) - 1) < 0) {
      // Nothing to do: the terminal has gone.
    }
  }
}

void ProgressLine::Stop() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  if (dir_.empty()) return;
  if (DIR* d = opendir(dir_.c_str())) {
    while (dirent* e = readdir(d)) {
      if (std::strcmp(e->d_name, ".") != 0 &&
          std::strcmp(e->d_name, "..") != 0) {
        unlink((dir_ + "/" + e->d_name).c_str());
      }
    }
    closedir(d);
  }
  rmdir(dir_.c_str());
  dir_.clear();
}

}  // namespace roctrace
