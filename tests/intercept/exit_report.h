// The line exit_test reads from its probes (exit_probe.cc, dlclose_probe.cc),
// written from an exit handler: write(2) only, stdio may be gone.
#ifndef TESTS_INTERCEPT_EXIT_REPORT_H_
#define TESTS_INTERCEPT_EXIT_REPORT_H_

#include <unistd.h>

#include <cstdint>
#include <cstdio>

inline void WriteCallsAndRecords(uint64_t calls, uint64_t records) {
  char line[96];
  const int n = std::snprintf(line, sizeof(line), "CALLS %llu RECORDS %llu\n",
                              static_cast<unsigned long long>(calls),
                              static_cast<unsigned long long>(records));
  if (n > 0) (void)!write(STDOUT_FILENO, line, static_cast<size_t>(n));
}

#endif  // TESTS_INTERCEPT_EXIT_REPORT_H_
