// --kernel-include-regex / --kernel-exclude-regex: which kernels' dispatches
// are written. POSIX extended regular expressions searched anywhere in the
// (demangled) kernel name; compiled once. The tool asks once per kernel name
// (RecordConverter caches the answer), the command checks the patterns
// before the program starts.
#ifndef ROCTRACE_TOOL_KERNEL_FILTER_H_
#define ROCTRACE_TOOL_KERNEL_FILTER_H_

#include <regex.h>

#include <string>

namespace roctrace {

class KernelFilter {
 public:
  KernelFilter() = default;
  KernelFilter(const KernelFilter&) = delete;
  KernelFilter& operator=(const KernelFilter&) = delete;
  ~KernelFilter();

  // Empty patterns: no filter. False when a pattern does not compile
  // (*error names it and says why); the filter then keeps everything.
  bool Set(const std::string& include, const std::string& exclude,
           std::string* error);
  bool Keep(const std::string& name) const;

 private:
  void Clear();

  bool has_include_ = false, has_exclude_ = false;
  regex_t include_{}, exclude_{};
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_KERNEL_FILTER_H_
