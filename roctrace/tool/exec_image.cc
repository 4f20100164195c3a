#include "roctrace/tool/exec_image.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace roctrace {
namespace {

constexpr char kVariable[] = "ROCTRACE_EXEC_IMAGE";

// The process's start time (field 22 of /proc/self/stat): the same in every
// image of one process, different for a later process that gets the pid
// again. 0 when unreadable.
uint64_t ProcessStartTime() {
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces and parentheses: count from
  // its last ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 22) return std::strtoull(field.c_str(), nullptr, 10);
  }
  return 0;
}

}  // namespace

std::string FormatExecImage(uint32_t pid, uint64_t start, uint32_t image) {
  char text[64];
  std::snprintf(text, sizeof(text), "%" PRIu32 ":%" PRIu64 ":%" PRIu32, pid,
                start, image);
  return text;
}

bool ParseExecImage(const char* value, uint32_t* pid, uint64_t* start,
                    uint32_t* image) {
  if (value == nullptr) return false;
  unsigned long long p = 0, s = 0, n = 0;
  int used = 0;
  if (std::sscanf(value, "%llu:%llu:%llu%n", &p, &s, &n, &used) != 3 ||
      value[used] != '\0' || p > UINT32_MAX || n >= UINT32_MAX) {
    return false;
  }
  *pid = static_cast<uint32_t>(p);
  *start = s;
  *image = static_cast<uint32_t>(n);
  return true;
}

uint32_t TakeExecImageNumber() {
  const uint32_t pid = static_cast<uint32_t>(getpid());
  const uint64_t start = ProcessStartTime();
  uint32_t image = 0;
  uint32_t seen_pid = 0, seen_image = 0;
  uint64_t seen_start = 0;
  if (ParseExecImage(std::getenv(kVariable), &seen_pid, &seen_start,
                     &seen_image) &&
      seen_pid == pid && seen_start == start) {
    image = seen_image + 1;
  }
  setenv(kVariable, FormatExecImage(pid, start, image).c_str(), 1);
  return image;
}

std::string ExecImageSuffix(uint32_t image) {
  return image == 0 ? std::string() : "_exec" + std::to_string(image);
}

}  // namespace roctrace
