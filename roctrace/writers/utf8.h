// Text from the program (rocTX messages) goes into formats that must be
// UTF-8 (Perfetto's strings, JSON, SQLite TEXT read by Python): bytes that
// are not valid UTF-8 are replaced, each by U+FFFD, the replacement
// character, as a decoder reading it leniently would show them.
#ifndef ROCTRACE_WRITERS_UTF8_H_
#define ROCTRACE_WRITERS_UTF8_H_

#include <cstddef>
#include <string>

namespace roctrace {

// The length of the valid UTF-8 sequence at `s[i]` (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), 0 when there is none.
inline size_t Utf8SequenceLength(const std::string& s, size_t i) {
  const auto byte = [&s](size_t at) {
    return at < s.size() ? static_cast<unsigned char>(s[at]) : 0u;
  };
  const unsigned b = byte(i);
  const auto cont = [&byte](size_t at, unsigned lo = 0x80, unsigned hi = 0xBF) {
    const unsigned c = byte(at);
    return c >= lo && c <= hi;
  };
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    const unsigned lo = b == 0xE0 ? 0xA0 : 0x80;
    const unsigned hi = b == 0xED ? 0x9F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    const unsigned lo = b == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = b == 0xF4 ? 0x8F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

// `text` itself when valid (the common case: no copy is made by callers
// that check IsValidUtf8 first), else with every invalid byte replaced.
inline std::string MakeValidUtf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

inline bool IsValidUtf8(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_UTF8_H_
