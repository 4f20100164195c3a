// rocprofv3's -T/--truncate-kernels: a demangled kernel name cut to the
// function's own name, without its scope, template arguments, parameters
// or return type ("Foo<int, float>::foo(a[], int (int))" -> "foo"), by the
// rule rocprofiler-sdk's tool applies: from the end, skip spaces and every
// balanced (...), <...> or [...] group; the name is what then precedes, up
// to a space or a ':'.
#ifndef ROCTRACE_TOOL_TRUNCATE_KERNEL_NAME_H_
#define ROCTRACE_TOOL_TRUNCATE_KERNEL_NAME_H_

#include <string>

namespace roctrace {

inline std::string TruncateKernelName(const std::string& name) {
  size_t end = name.size();
  while (end > 0) {
    const char c = name[end - 1];
    if (c == ' ') {
      --end;
      continue;
    }
    const char open = c == ')' ? '(' : c == '>' ? '<' : c == ']' ? '[' : 0;
    if (open == 0) break;
    // Back over the group, nested groups of the same kind included.
    int depth = 0;
    do {
      const char at = name[end - 1];
      if (at == c) ++depth;
      if (at == open) --depth;
      --end;
    } while (end > 0 && depth > 0);
  }
  size_t start = end;
  while (start > 0 && name[start - 1] != ' ' && name[start - 1] != ':') {
    --start;
  }
  return name.substr(start, end - start);
}

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_TRUNCATE_KERNEL_NAME_H_
