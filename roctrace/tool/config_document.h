// `--output-config`'s `<prefix>_config.json`: one process's pid, command
// line and the configuration roctrace gave it. Written by the tool in each
// traced process and by the command for a program it runs untraced: one
// builder, so that both files have one layout.
#ifndef ROCTRACE_TOOL_CONFIG_DOCUMENT_H_
#define ROCTRACE_TOOL_CONFIG_DOCUMENT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace roctrace {

// `{"roctrace": {"pid": pid, "command": [...], "config": {...}}}`, indented,
// with a final newline. `config` is a JSON object's text (the command's
// ROCTRACE_OUTPUT_CONFIG); text that is not a JSON object is kept as a
// string, so the document stays valid JSON. Invalid UTF-8 in the command
// line is replaced (U+FFFD), not a reason to fail.
std::string ConfigDocument(uint32_t pid,
                           const std::vector<std::string>& command,
                           const std::string& config);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_CONFIG_DOCUMENT_H_
