#ifndef ROCTRACE_WRITERS_DECIMAL_DIGITS_H_
#define ROCTRACE_WRITERS_DECIMAL_DIGITS_H_

#include <cstdint>

namespace roctrace {

// The 8 decimal digits of `v` < 10^8 (leading zeros kept) as 8 ASCII bytes
// in memory order, computed in parallel within one 64-bit word: split into
// two 4-digit halves, each into two 2-digit lanes, each into two digits,
// dividing by multiplying with a scaled reciprocal (exact for these ranges:
// x * 10486 >> 20 == x / 100 for x < 10^4, x * 103 >> 10 == x / 10 for
// x < 100). A division per digit was a tenth of a whole trace's CPU (the
// CSV and JSON writers' numbers).
inline uint64_t EightDigits(uint32_t v) {
  uint64_t halves = (v / 10000) | (uint64_t{v % 10000} << 32);
  const uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007Full;
  const uint64_t pairs = hundreds | ((halves - hundreds * 100) << 16);
  const uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000Full;
  const uint64_t digits = tens | ((pairs - tens * 10) << 8);
  return digits | 0x3030303030303030ull;
}

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_DECIMAL_DIGITS_H_
