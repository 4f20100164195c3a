#include "roctrace/writers/output_failures.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

#include "roctrace/writers/event.h"

namespace roctrace {
namespace {

std::mutex& StatusMutex() {
  static std::mutex* mutex = new std::mutex;  // outlives exit-time writers
  return *mutex;
}

std::string& StatusPath() {
  static std::string* path = new std::string;
  return *path;
}

}  // namespace

void SetOutputStatusFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(StatusMutex());
  StatusPath() = path;
}

void ReportOutputFailure(const std::string& what) {
  const std::string line =
      "roctrace: pid " + std::to_string(getpid()) + ": " + what + "\n";
  std::lock_guard<std::mutex> lock(StatusMutex());
  std::fputs(line.c_str(), stderr);
  if (StatusPath().empty()) return;
  // One write of a short line with O_APPEND: lines of several processes
  // never interleave.
  int fd = open(StatusPath().c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  if (write(fd, line.data(), line.size()) < 0) {
    // Nowhere left to say it; stderr has it.
  }
  close(fd);
}

void Writer::ReportFailure(const std::string& path, const std::string& reason) {
  failures_.push_back(path + ": " + reason);
  ReportOutputFailure("cannot write " + path + ": " + reason);
}

}  // namespace roctrace
