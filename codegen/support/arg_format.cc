#include "codegen/support/arg_format.h"

#include <cinttypes>
#include <cstdio>

namespace roctracer::codegen {

const char kUnreadableString[] = "<unreadable>";

void AppendEscaped(std::string* out, const char* s, size_t max_chars) {
  static const char kHex[] = "0123456789abcdef";
  *out += '"';
  size_t i = 0;
  for (; s[i] != '\0' && i < max_chars; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          *out += "\\x";
          *out += kHex[c >> 4];
          *out += kHex[c & 0xf];
        } else {
          *out += static_cast<char>(c);
        }
    }
  }
  *out += '"';
  if (s[i] != '\0') *out += "...";
}

void AppendAddress(std::string* out, uintptr_t p) {
  if (p == 0) {
    *out += "NULL";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIxPTR, p);
  *out += buf;
}

void AppendInt(std::string* out, long long v) { *out += std::to_string(v); }

void AppendUint(std::string* out, unsigned long long v) {
  *out += std::to_string(v);
}

void AppendDouble(std::string* out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%g", v);
  *out += buf;
}

}  // namespace roctracer::codegen
