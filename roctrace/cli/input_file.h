// rocprofv3's -i/--input: a JSON or YAML file of jobs, {"jobs": [{...}]},
// each job a mapping of options named as on the command line with '_' for
// '-' ("kernel_trace": true, "output_format": ["csv", "json"],
// "output_directory": "out"). Plain-text input files are not read (said
// so, exit 2).
#ifndef ROCTRACE_CLI_INPUT_FILE_H_
#define ROCTRACE_CLI_INPUT_FILE_H_

#include <string>
#include <vector>

namespace roctrace {

// The command-line arguments of each job in `path` ("--kernel-trace=true",
// "--output-format", "csv", "json", ...); false with `*error` set when the
// file cannot be read, is not JSON or YAML (by its name: .yaml, .yml), or is
// not such a document.
bool ReadInputFile(const std::string& path,
                   std::vector<std::vector<std::string>>* jobs,
                   std::string* error);

// The same from the document's text (`name` for messages).
bool ParseInputJson(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error);
// From YAML (one document; plain true/false/null/~ are YAML's, every other
// scalar a word as written).
bool ParseInputYaml(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error);

}  // namespace roctrace

#endif  // ROCTRACE_CLI_INPUT_FILE_H_
