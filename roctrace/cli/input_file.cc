#include "roctrace/cli/input_file.h"

#include <cctype>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

namespace roctrace {
namespace {

// A JSON value: enough of JSON for option files (numbers kept as written).
struct Value {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  std::string text;  // a number's or a string's
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;
};

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  bool Document(Value* out, std::string* error) {
    if (!Parse(out, 0)) {
      *error = error_ + " at byte " + std::to_string(at_);
      return false;
    }
    Space();
    if (at_ != s_.size()) {
      *error = "text after the document at byte " + std::to_string(at_);
      return false;
    }
    return true;
  }

 private:
  void Space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' ||
                               s_[at_] == '\n' || s_[at_] == '\r')) {
      ++at_;
    }
  }
  bool Fail(const char* why) {
    error_ = why;
    return false;
  }
  bool Literal(const char* word) {
    const std::string w = word;
    if (s_.compare(at_, w.size(), w) != 0) return Fail("unknown word");
    at_ += w.size();
    return true;
  }

  bool String(std::string* out) {
    ++at_;  // the opening quote
    while (at_ < s_.size() && s_[at_] != '"') {
      char c = s_[at_++];
      if (static_cast<unsigned char>(c) < 0x20) {
        return Fail("control character in a string");
      }
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (at_ >= s_.size()) break;
      c = s_[at_++];
      switch (c) {
        case '"':
        case '\\':
        case '/':
          out->push_back(c);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t code = 0;
          if (!Hex4(&code)) return Fail("bad \\u escape");
          // A surrogate pair is one character.
          if (code >= 0xD800 && code < 0xDC00 &&
              s_.compare(at_, 2, "\\u") == 0) {
            at_ += 2;
            uint32_t low = 0;
            if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) {
              return Fail("bad surrogate pair");
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          Utf8(code, out);
          break;
        }
        default:
          return Fail("bad escape");
      }
    }
    if (at_ >= s_.size()) return Fail("unterminated string");
    ++at_;  // the closing quote
    return true;
  }
  bool Hex4(uint32_t* out) {
    if (at_ + 4 > s_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[at_++];
      *out <<= 4;
      if (c >= '0' && c <= '9') {
        *out |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        *out |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        *out |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    return true;
  }
  static void Utf8(uint32_t c, std::string* out) {
    if (c < 0x80) {
      out->push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (c >> 6)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (c >> 12)));
      out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (c >> 18)));
      out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }

  bool Parse(Value* v, int depth) {
    if (depth > 64) return Fail("nested too deep");
    Space();
    if (at_ >= s_.size()) return Fail("unexpected end");
    const char c = s_[at_];
    if (c == '{') {
      v->kind = Value::kObject;
      ++at_;
      Space();
      if (at_ < s_.size() && s_[at_] == '}') {
        ++at_;
        return true;
      }
      while (true) {
        Space();
        if (at_ >= s_.size() || s_[at_] != '"') return Fail("expected a key");
        std::string key;
        if (!String(&key)) return false;
        Space();
        if (at_ >= s_.size() || s_[at_] != ':') return Fail("expected ':'");
        ++at_;
        Value member;
        if (!Parse(&member, depth + 1)) return false;
        v->members.emplace_back(std::move(key), std::move(member));
        Space();
        if (at_ < s_.size() && s_[at_] == ',') {
          ++at_;
          continue;
        }
        if (at_ < s_.size() && s_[at_] == '}') {
          ++at_;
          return true;
        }
        return Fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v->kind = Value::kArray;
      ++at_;
      Space();
      if (at_ < s_.size() && s_[at_] == ']') {
        ++at_;
        return true;
      }
      while (true) {
        Value item;
        if (!Parse(&item, depth + 1)) return false;
        v->items.push_back(std::move(item));
        Space();
        if (at_ < s_.size() && s_[at_] == ',') {
          ++at_;
          continue;
        }
        if (at_ < s_.size() && s_[at_] == ']') {
          ++at_;
          return true;
        }
        return Fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v->kind = Value::kString;
      return String(&v->text);
    }
    if (c == 't' || c == 'f') {
      v->kind = Value::kBool;
      v->boolean = c == 't';
      return Literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') return Literal("null");
    if (c == '-' || (c >= '0' && c <= '9')) {
      v->kind = Value::kNumber;
      const size_t start = at_;
      while (at_ < s_.size() && std::string("+-.eE0123456789").find(s_[at_]) !=
                                    std::string::npos) {
        ++at_;
      }
      v->text = s_.substr(start, at_ - start);
      return true;
    }
    return Fail("unexpected character");
  }

  const std::string& s_;
  size_t at_ = 0;
  std::string error_;
};

// A scalar as a command-line word.
bool Word(const Value& v, std::string* out) {
  switch (v.kind) {
    case Value::kBool:
      *out = v.boolean ? "true" : "false";
      return true;
    case Value::kNumber:
    case Value::kString:
      *out = v.text;
      return true;
    default:
      return false;
  }
}

}  // namespace

namespace {

// The jobs of a parsed input document (JSON's or YAML's).
bool JobsFromDocument(const Value& doc, const std::string& name,
                      std::vector<std::vector<std::string>>* jobs,
                      std::string* error) {
  const Value* list = nullptr;
  for (const auto& m : doc.members) {
    if (m.first == "jobs") list = &m.second;
  }
  if (doc.kind != Value::kObject || list == nullptr ||
      list->kind != Value::kArray || list->items.empty()) {
    *error = name + ": want {\"jobs\": [{option: value, ...}, ...]}";
    return false;
  }
  for (const Value& job : list->items) {
    if (job.kind != Value::kObject) {
      *error = name + ": a job is not an object";
      return false;
    }
    std::vector<std::string> args;
    for (const auto& [key, value] : job.members) {
      std::string option = "--" + key;
      for (char& c : option) {
        if (c == '_') c = '-';
      }
      std::string word;
      if (value.kind == Value::kNull) continue;  // unset, as not given
      if (value.kind == Value::kArray) {
        if (value.items.empty()) continue;
        args.push_back(option);
        for (const Value& item : value.items) {
          if (!Word(item, &word)) {
            *error = name + ": " + key + ": a list of scalars is wanted";
            return false;
          }
          args.push_back(word);
        }
      } else if (Word(value, &word)) {
        args.push_back(option + "=" + word);
      } else {
        *error = name + ": " + key + ": an object is not an option's value";
        return false;
      }
    }
    jobs->push_back(std::move(args));
  }
  return true;
}

// The block YAML that input files are written in: mappings ("key: value"),
// sequences ("- item", also "- key: value" starting a mapping), flow
// sequences ("[a, b]"), plain, single- and double-quoted scalars and
// comments. Anchors, tags, multi-line scalars and flow mappings are not
// read (an error, never a guess).
class YamlParser {
 public:
  explicit YamlParser(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const std::string content = StripComment(line);
      const size_t indent = content.find_first_not_of(' ');
      if (indent == std::string::npos) continue;
      if (content.find('\t') < indent) tab_line_ = number;
      size_t end = content.find_last_not_of(' ');
      lines_.push_back(
          {indent, content.substr(indent, end - indent + 1), number});
    }
  }

  bool Document(Value* out, std::string* error) {
    if (tab_line_ != 0) return Fail(error, tab_line_, "a tab in indentation");
    if (lines_.empty()) return Fail(error, 0, "empty document");
    if (document_start_) ++at_;
    if (!Block(lines_[at_].indent, out, error)) return false;
    if (at_ != lines_.size()) {
      return Fail(error, lines_[at_].number, "unexpected indentation");
    }
    return true;
  }

 private:
  struct Line {
    size_t indent;
    std::string text;
    int number;
  };

  static bool Fail(std::string* error, int line, const std::string& why) {
    *error = why + (line > 0 ? " (line " + std::to_string(line) + ")" : "");
    return false;
  }

  // The line without its comment (a '#' outside quotes, at the start or
  // after a space).
  std::string StripComment(const std::string& line) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (i == 0 || line[i - 1] == ' ')) {
        return line.substr(0, i);
      }
    }
    if (line == "---") document_start_ = lines_.empty();
    return line;
  }

  // Where a "key: value" line's colon is (outside quotes and brackets).
  static size_t KeyColon(const std::string& text) {
    char quote = 0;
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        ++depth;
      } else if (c == ']') {
        --depth;
      } else if (c == ':' && depth == 0 &&
                 (i + 1 == text.size() || text[i + 1] == ' ')) {
        return i;
      }
    }
    return std::string::npos;
  }

  static bool IsItem(const std::string& text) {
    return text == "-" || text.compare(0, 2, "- ") == 0;
  }

  bool Block(size_t indent, Value* out, std::string* error) {
    if (IsItem(lines_[at_].text)) {
      out->kind = Value::kArray;
      while (at_ < lines_.size() && lines_[at_].indent == indent &&
             IsItem(lines_[at_].text)) {
        Line& line = lines_[at_];
        const size_t skip = line.text.find_first_not_of(' ', 1);
        Value item;
        if (skip == std::string::npos) {  // "-" alone: the item below
          ++at_;
          if (at_ >= lines_.size() || lines_[at_].indent <= indent) {
            item.kind = Value::kNull;
          } else if (!Block(lines_[at_].indent, &item, error)) {
            return false;
          }
        } else if (KeyColon(line.text.substr(skip)) != std::string::npos ||
                   IsItem(line.text.substr(skip))) {
          // "- key: value": a mapping (or sequence) starting on this line.
          line.text = line.text.substr(skip);
          line.indent += skip;
          if (!Block(line.indent, &item, error)) return false;
        } else {
          if (!Inline(line.text.substr(skip), line.number, &item, error)) {
            return false;
          }
          ++at_;
        }
        out->items.push_back(std::move(item));
      }
      return true;
    }
    out->kind = Value::kObject;
    while (at_ < lines_.size() && lines_[at_].indent == indent &&
           !IsItem(lines_[at_].text)) {
      const Line& line = lines_[at_];
      const size_t colon = KeyColon(line.text);
      if (colon == std::string::npos) {
        return Fail(error, line.number, "expected 'key: value'");
      }
      Value key;
      if (!Inline(line.text.substr(0, colon), line.number, &key, error)) {
        return false;
      }
      const size_t start = line.text.find_first_not_of(' ', colon + 1);
      Value value;
      const int number = line.number;
      ++at_;
      if (start != std::string::npos) {
        if (!Inline(line.text.substr(start), number, &value, error)) {
          return false;
        }
      } else if (at_ < lines_.size() &&
                 (lines_[at_].indent > indent ||
                  (lines_[at_].indent == indent && IsItem(lines_[at_].text)))) {
        // A sequence may sit at its key's own indentation.
        if (!Block(lines_[at_].indent, &value, error)) return false;
      }
      out->members.emplace_back(key.text, std::move(value));
    }
    return true;
  }

  // A scalar or a flow sequence on one line.
  static bool Inline(const std::string& text, int number, Value* out,
                     std::string* error) {
    if (text.empty()) return true;  // null
    if (text[0] == '[') {
      if (text.back() != ']') return Fail(error, number, "unclosed '['");
      out->kind = Value::kArray;
      std::string item;
      char quote = 0;
      int depth = 0;
      auto flush = [&]() {
        const size_t a = item.find_first_not_of(' ');
        if (a == std::string::npos) return true;
        Value v;
        const size_t b = item.find_last_not_of(' ');
        if (!Inline(item.substr(a, b - a + 1), number, &v, error)) return false;
        out->items.push_back(std::move(v));
        return true;
      };
      for (size_t i = 1; i + 1 < text.size(); ++i) {
        const char c = text[i];
        if (quote != 0) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '[') {
          ++depth;
        } else if (c == ']') {
          --depth;
        } else if (c == ',' && depth == 0) {
          if (!flush()) return false;
          item.clear();
          continue;
        }
        item.push_back(c);
      }
      return flush();
    }
    if (text[0] == '{' || text[0] == '&' || text[0] == '*' || text[0] == '!' ||
        text[0] == '|' || text[0] == '>') {
      return Fail(error, number, "YAML beyond plain block style");
    }
    if (text[0] == '"' || text[0] == '\'') {
      const char q = text[0];
      if (text.size() < 2 || text.back() != q) {
        return Fail(error, number, "unclosed quote");
      }
      out->kind = Value::kString;
      for (size_t i = 1; i + 1 < text.size(); ++i) {
        char c = text[i];
        if (q == '\'' && c == '\'' && text[i + 1] == '\'') {
          ++i;  // '' is a quote
        } else if (q == '"' && c == '\\') {
          c = text[++i];
          if (c == 'n') c = '\n';
          if (c == 't') c = '\t';
        }
        out->text.push_back(c);
      }
      return true;
    }
    std::string lower;
    for (char c : text) lower.push_back(static_cast<char>(std::tolower(c)));
    if (lower == "true" || lower == "false") {
      out->kind = Value::kBool;
      out->boolean = lower == "true";
    } else if (lower == "null" || lower == "~") {
      out->kind = Value::kNull;
    } else {
      out->kind = Value::kString;  // a number too: a word either way
      out->text = text;
    }
    return true;
  }

  std::vector<Line> lines_;
  size_t at_ = 0;
  int tab_line_ = 0;
  bool document_start_ = false;
};

}  // namespace

bool ParseInputJson(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error) {
  Value doc;
  std::string why;
  if (!Parser(text).Document(&doc, &why)) {
    *error = name + ": not JSON: " + why;
    return false;
  }
  return JobsFromDocument(doc, name, jobs, error);
}

bool ParseInputYaml(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error) {
  Value doc;
  std::string why;
  if (!YamlParser(text).Document(&doc, &why)) {
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
