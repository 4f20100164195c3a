#include "roctrace/tool/sdk_hip_name.h"

#include <algorithm>

namespace roctrace {

std::string HipNameBeforeRename(const std::string& name) {
  const size_t n = name.size();
  if (n > 8 && name.compare(0, 3, "hip") == 0 && name[n - 5] == 'R' &&
      std::all_of(name.end() - 4, name.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    return name.substr(0, n - 5);
  }
  return "";
}

std::string SdkHipName(const std::string& name,
                       const std::unordered_set<std::string>& sdk_names) {
  if (sdk_names.empty() || sdk_names.count(name) != 0) return name;
  std::string before = HipNameBeforeRename(name);
  if (!before.empty() && sdk_names.count(before) != 0) return before;
  return name;
}

}  // namespace roctrace
