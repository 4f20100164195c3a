// Which image of its process this one is: a program that execs itself keeps
// its pid, so `%pid%` names the same files in the new image, which would
// truncate the old image's outputs. Each image records itself in the
// environment (ROCTRACE_EXEC_IMAGE=<pid>:<start time>:<number>), which exec
// passes on with the tracer's other variables; an image that finds its own
// pid and start time there (/proc/self/stat's, kept across exec) is the next
// one. The first image is 0 and keeps the plain names; image n > 0 writes
// `<prefix>_exec<n>_...`.
#ifndef ROCTRACE_TOOL_EXEC_IMAGE_H_
#define ROCTRACE_TOOL_EXEC_IMAGE_H_

#include <cstdint>
#include <string>

namespace roctrace {

// This image's number, from the environment the process started with, and
// records it there for the next image. Call once, at start.
uint32_t TakeExecImageNumber();

// What an image's output prefix gets: "" for image 0, "_exec<n>" otherwise.
std::string ExecImageSuffix(uint32_t image);

// The value the variable holds for image `image` of process `pid` started at
// `start` (clock ticks since boot); ParseExecImage is its inverse (false on
// anything else).
std::string FormatExecImage(uint32_t pid, uint64_t start, uint32_t image);
bool ParseExecImage(const char* value, uint32_t* pid, uint64_t* start,
                    uint32_t* image);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_EXEC_IMAGE_H_
