#include "roctrace/tool/config_document.h"

#include <nlohmann/json.hpp>

namespace roctrace {

std::string ConfigDocument(uint32_t pid,
                           const std::vector<std::string>& command,
                           const std::string& config) {
  // Parsed (keys in their order) rather than pasted in: a hand-set
  // ROCTRACE_OUTPUT_CONFIG cannot make the file invalid.
  nlohmann::ordered_json values = nlohmann::ordered_json::parse(
      config, nullptr, /*allow_exceptions=*/false);
  if (!values.is_object()) values = config;
  nlohmann::ordered_json doc = {
      {"roctrace",
       {{"pid", pid}, {"command", command}, {"config", std::move(values)}}}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

}  // namespace roctrace
