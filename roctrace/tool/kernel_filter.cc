#include "roctrace/tool/kernel_filter.h"

namespace roctrace {
namespace {

bool Compile(const std::string& pattern, const char* what, regex_t* out,
             std::string* error) {
  int rc = regcomp(out, pattern.c_str(), REG_EXTENDED | REG_NOSUB);
  if (rc == 0) return true;
  char why[256];
  regerror(rc, out, why, sizeof(why));
  regfree(out);
  if (error != nullptr) {
    *error = std::string("bad ") + what + " '" + pattern + "': " + why;
  }
  return false;
}

}  // namespace

KernelFilter::~KernelFilter() { Clear(); }

void KernelFilter::Clear() {
  if (has_include_) regfree(&include_);
  if (has_exclude_) regfree(&exclude_);
  has_include_ = has_exclude_ = false;
}

bool KernelFilter::Set(const std::string& include, const std::string& exclude,
                       std::string* error) {
  Clear();
  if (!include.empty()) {
    if (!Compile(include, "--kernel-include-regex", &include_, error)) {
      return false;
    }
    has_include_ = true;
  }
  if (!exclude.empty()) {
    if (!Compile(exclude, "--kernel-exclude-regex", &exclude_, error)) {
      Clear();
      return false;
    }
    has_exclude_ = true;
  }
  return true;
}

bool KernelFilter::Keep(const std::string& name) const {
  if (has_include_ && regexec(&include_, name.c_str(), 0, nullptr, 0) != 0) {
    return false;
  }
  return !has_exclude_ || regexec(&exclude_, name.c_str(), 0, nullptr, 0) != 0;
}

}  // namespace roctrace
