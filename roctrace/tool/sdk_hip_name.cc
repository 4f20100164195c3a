#include "roctrace/tool/sdk_hip_name.h"

#include "roctrace/writers/json_writer.h"

namespace roctrace {

std::string SdkHipName(const std::string& name,
                       const std::unordered_set<std::string>& sdk_names) {
  if (sdk_names.empty() || sdk_names.count(name) != 0) return name;
  std::string before = HipNameBeforeRename(name);
  if (!before.empty() && sdk_names.count(before) != 0) return before;
  return name;
}

}  // namespace roctrace
