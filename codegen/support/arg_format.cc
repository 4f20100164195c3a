#include "codegen/support/arg_format.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

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

namespace {

// "000102...ff": two digits a byte.
struct HexPairs {
  char text[512];
  constexpr HexPairs() : text() {
    constexpr char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 256; ++i) {
      text[2 * i] = kHex[i >> 4];
      text[2 * i + 1] = kHex[i & 0xf];
    }
  }
};
constexpr HexPairs kHexPairs;

// "000102...99": two decimal digits a pair.
struct DecimalPairs {
  char text[200];
  constexpr DecimalPairs() : text() {
    for (int i = 0; i < 100; ++i) {
      text[2 * i] = static_cast<char>('0' + i / 10);
      text[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
  }
};
constexpr DecimalPairs kDecimalPairs;

// 10^i, for counting digits.
struct Powers10 {
  uint64_t of[20];
  constexpr Powers10() : of() {
    uint64_t p = 1;
    for (int i = 0; i < 20; ++i, p *= 10) of[i] = p;
  }
};
constexpr Powers10 kPowers10;

}  // namespace

char* PutAddress(char* buf, uintptr_t p) noexcept {
  if (p == 0) {
    std::memcpy(buf, "NULL", 4);
    return buf + 4;
  }
  // By hand, not snprintf: addresses are most of the arguments a trace
  // prints, and the format parser cost more than the digits. Counted
  // first, then written from the last, two a byte.
  const int n = (64 - __builtin_clzll(p) + 3) / 4;
  buf[0] = '0';
  buf[1] = 'x';
  char* const end = buf + 2 + n;
  char* q = end;
  for (; p >= 0x100; p >>= 8) {
    q -= 2;
    std::memcpy(q, &kHexPairs.text[2 * (p & 0xff)], 2);
  }
  if (p >= 0x10) {
    std::memcpy(q - 2, &kHexPairs.text[2 * p], 2);
  } else {
    q[-1] = kHexPairs.text[2 * p + 1];
  }
  return end;
}

// The digits counted first (log10 from the bit length: bits * 1233 / 4096
// is floor(log10(2^bits)), then one compare), then written from the last,
// two a step, as PutAddress does: std::to_chars counted them in a loop of
// divisions, about half of a printed size's cost.
char* PutDecimal(char* buf, unsigned long long v) noexcept {
  if (v < 10) {
    *buf = static_cast<char>('0' + v);
    return buf + 1;
  }
  const unsigned bits = 64 - static_cast<unsigned>(__builtin_clzll(v));
  const unsigned t = bits * 1233 >> 12;
  char* const end = buf + t + (v >= kPowers10.of[t] ? 1 : 0);
  char* q = end;
  for (; v >= 100; v /= 100) {
    q -= 2;
    std::memcpy(q, &kDecimalPairs.text[2 * (v % 100)], 2);
  }
  if (v >= 10) {
    std::memcpy(q - 2, &kDecimalPairs.text[2 * v], 2);
  } else {
    q[-1] = static_cast<char>('0' + v);
  }
  return end;
}

char* PutDecimal(char* buf, long long v) noexcept {
  if (v < 0) {
    *buf = '-';
    // The magnitude in unsigned arithmetic: LLONG_MIN's has no long long.
    return PutDecimal(buf + 1, 0ull - static_cast<unsigned long long>(v));
  }
  return PutDecimal(buf, static_cast<unsigned long long>(v));
}

void AppendAddress(std::string* out, uintptr_t p) {
  char buf[24];
  out->append(buf, static_cast<size_t>(PutAddress(buf, p) - buf));
}

void AppendInt(std::string* out, long long v) {
  char buf[24];
  out->append(buf, static_cast<size_t>(PutDecimal(buf, v) - buf));
}

void AppendUint(std::string* out, unsigned long long v) {
  char buf[24];
  out->append(buf, static_cast<size_t>(PutDecimal(buf, v) - buf));
}

void AppendDouble(std::string* out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%g", v);
  *out += buf;
}

}  // namespace roctracer::codegen
