#include "roctrace/cli/input_file.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <utility>

namespace roctrace {
namespace {

// Members keep the file's order: a job's options are arguments in the order
// written, and a later option overrides an earlier one as on a command line.
using Json = nlohmann::ordered_json;

// A scalar as a command-line word.
bool Word(const Json& v, std::string* out) {
  if (v.is_boolean()) {
    *out = v.get<bool>() ? "true" : "false";
  } else if (v.is_string()) {
    *out = v.get<std::string>();
  } else if (v.is_number()) {
    *out = v.dump();
  } else {
    return false;
  }
  return true;
}

// The jobs of an input document: JSON's, or YAML's read into the same form.
bool JobsFromDocument(const Json& doc, const std::string& name,
                      std::vector<std::vector<std::string>>* jobs,
                      std::string* error) {
  const auto list = doc.is_object() ? doc.find("jobs") : doc.end();
  if (!doc.is_object() || list == doc.end() || !list->is_array() ||
      list->empty()) {
    *error = name + ": want {\"jobs\": [{option: value, ...}, ...]}";
    return false;
  }
  for (const Json& job : *list) {
    if (!job.is_object()) {
      *error = name + ": a job is not an object";
      return false;
    }
    std::vector<std::string> args;
    for (const auto& [key, value] : job.items()) {
      std::string option = "--" + key;
      for (char& c : option) {
        if (c == '_') c = '-';
      }
      if (value.is_null()) continue;  // unset, as not given
      // A scalar is one value ("--name=value"), a list several.
      const bool list_value = value.is_array();
      if (list_value && value.empty()) continue;
      if (list_value) args.push_back(option);
      for (const Json& item : list_value ? value : Json::array({value})) {
        std::string word;
        if (!Word(item, &word)) {
          *error = name + ": " + key +
                   (list_value ? ": a list of scalars is wanted"
                               : ": an object is not an option's value");
          return false;
        }
        args.push_back(list_value ? word : option + "=" + word);
      }
    }
    jobs->push_back(std::move(args));
  }
  return true;
}

// A YAML node as JSON. Plain scalars follow YAML's core schema for the
// words options use (true/false in any case, null and ~); every other
// scalar, numbers included, is a word as written. Quoted scalars are
// always strings.
bool YamlToJson(const YAML::Node& node, Json* out, std::string* error) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      *out = nullptr;
      return true;
    case YAML::NodeType::Scalar: {
      const std::string& text = node.Scalar();
      if (node.Tag() == "?") {  // plain, not quoted
        std::string lower;
        for (char c : text) lower.push_back(std::tolower(c));
        if (lower == "true" || lower == "false") {
          *out = lower == "true";
          return true;
        }
        if (lower == "null" || lower == "~" || lower.empty()) {
          *out = nullptr;
          return true;
        }
      }
      *out = text;
      return true;
    }
    case YAML::NodeType::Sequence:
      *out = Json::array();
      for (const YAML::Node& item : node) {
        Json value;
        if (!YamlToJson(item, &value, error)) return false;
        out->push_back(std::move(value));
      }
      return true;
    case YAML::NodeType::Map:
      *out = Json::object();
      for (const auto& member : node) {
        if (!member.first.IsScalar()) {
          *error = "a key is not a scalar (line " +
                   std::to_string(member.first.Mark().line + 1) + ")";
          return false;
        }
        Json value;
        if (!YamlToJson(member.second, &value, error)) return false;
        (*out)[member.first.Scalar()] = std::move(value);
      }
      return true;
  }
  return false;
}

}  // namespace

bool ParseInputJson(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    *error = name + ": not JSON: " + e.what();
    return false;
  }
  return JobsFromDocument(doc, name, jobs, error);
}

bool ParseInputYaml(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error) {
  Json doc;
  std::string why;
  try {
    const std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() != 1) {
      why = std::to_string(documents.size()) + " documents, want one";
    } else {
      YamlToJson(documents[0], &doc, &why);
    }
  } catch (const YAML::Exception& e) {
    why = e.what();
  }
  if (!why.empty()) {
    *error = name + ": not read as YAML: " + why;
    return false;
  }
  return JobsFromDocument(doc, name, jobs, error);
}

bool ReadInputFile(const std::string& path,
                   std::vector<std::vector<std::string>>* jobs,
                   std::string* error) {
  auto ends = [&path](const char* suffix) {
    const std::string s = suffix;
    return path.size() >= s.size() &&
           path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  if (ends(".yaml") || ends(".yml")) {
    return ParseInputYaml(text, path, jobs, error);
  }
  // rocprofv3 reads other names as text input files (counter lists): not
  // read here; a JSON document is known by its first character.
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (ends(".json") || (first != std::string::npos && text[first] == '{')) {
    return ParseInputJson(text, path, jobs, error);
  }
  *error = path + ": text input files are not read (JSON or YAML: .yaml, .yml)";
  return false;
}

}  // namespace roctrace
