#include "codegen/support/arg_format.h"

#include <cinttypes>
#include <cstdio>

namespace roctracer::codegen {

const char kUnreadableString[] = "<unreadable>";

void NormalizeTypeSpelling(const char* in, char* out, size_t cap) noexcept {
  size_t n = 0;
  for (size_t i = 0; in[i] != '\0' && n + 1 < cap; ++i) {
    if (in[i] == ' ') {
      size_t j = i;
      while (in[j] == ' ') ++j;
      if (in[j] == '*' ||
          (n > 0 && out[n - 1] == '*' && (in[j] == ')' || in[j] == '\0'))) {
        i = j - 1;
        continue;
      }
    }
    out[n++] = in[i];
  }
  out[n] = '\0';
}

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
  // By hand, not snprintf: addresses are most of the arguments a trace
  // prints, and the format parser cost more than the digits.
  static const char kHex[] = "0123456789abcdef";
  char buf[2 + 2 * sizeof(p)];
  char* end = buf + sizeof(buf);
  char* q = end;
  for (; p != 0; p >>= 4) *--q = kHex[p & 0xf];
  *--q = 'x';
  *--q = '0';
  out->append(q, static_cast<size_t>(end - q));
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
