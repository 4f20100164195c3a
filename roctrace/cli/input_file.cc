#include "roctrace/cli/input_file.h"

#include <cstdint>
#include <fstream>
#include <iterator>
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

bool ParseInputJson(const std::string& text, const std::string& name,
                    std::vector<std::vector<std::string>>* jobs,
                    std::string* error) {
  Value doc;
  std::string why;
  if (!Parser(text).Document(&doc, &why)) {
    *error = name + ": not JSON: " + why;
    return false;
  }
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

bool ReadInputFile(const std::string& path,
                   std::vector<std::vector<std::string>>* jobs,
                   std::string* error) {
  auto ends = [&path](const char* suffix) {
    const std::string s = suffix;
    return path.size() >= s.size() &&
           path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  if (ends(".yaml") || ends(".yml")) {
    *error = path + ": YAML input files are not read; write the jobs as JSON";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  return ParseInputJson(text, path, jobs, error);
}

}  // namespace roctrace
