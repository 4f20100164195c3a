// Facts of SQLite's file format (https://www.sqlite.org/fileformat2.html)
// the appender writes by hand: b-tree page kinds and header sizes, the
// big-endian integers of headers and cells, varints, and the serial types
// (byte widths) of integer values. Inline: the row encoders' hot path is
// made of them.
#ifndef ROCTRACE_WRITERS_SQLITE_FILE_FORMAT_H_
#define ROCTRACE_WRITERS_SQLITE_FILE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace roctrace {
namespace sqlite_format {

// B-tree page kinds (the first byte of a page) and their header sizes.
constexpr uint8_t kTableLeaf = 0x0D;
constexpr uint8_t kTableInterior = 0x05;
constexpr size_t kLeafHeader = 8;
constexpr size_t kInteriorHeader = 12;

inline uint32_t Get2(const uint8_t* p) { return uint32_t{p[0]} << 8 | p[1]; }
inline uint32_t Get4(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 |
         p[3];
}
// The word stores below and the leaf writer's (Store8) lay bytes out as a
// little-endian host does.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the SQLite page writer assumes a little-endian host");

// One 2-byte store (the compiler leaves the two byte stores apart).
inline void Put2(uint8_t* p, uint32_t v) {
  const uint16_t be = __builtin_bswap16(static_cast<uint16_t>(v));
  std::memcpy(p, &be, 2);
}
inline void Put4(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

inline size_t VarintLen(uint64_t v) {
  const size_t bits = 64 - static_cast<size_t>(__builtin_clzll(v | 1));
  return bits > 56 ? 9 : (bits + 6) / 7;
}

// SQLite's varint of `n` (VarintLen) bytes: big-endian groups of 7 bits,
// the 9th byte all 8.
inline void PutVarint(uint8_t* p, uint64_t v, size_t n) {
  // Rowids and sizes: mostly 3 bytes or fewer, written without a loop.
  if (n <= 3) {
    if (n == 3) {
      p[0] = static_cast<uint8_t>((v >> 14) | 0x80);
      p[1] = static_cast<uint8_t>(((v >> 7) & 0x7f) | 0x80);
      p[2] = static_cast<uint8_t>(v & 0x7f);
    } else if (n == 2) {
      p[0] = static_cast<uint8_t>((v >> 7) | 0x80);
      p[1] = static_cast<uint8_t>(v & 0x7f);
    } else {
      p[0] = static_cast<uint8_t>(v);
    }
    return;
  }
  size_t i = n - 1;
  if (n == 9) {
    p[8] = static_cast<uint8_t>(v);
    v >>= 8;
  } else {
    p[i] = static_cast<uint8_t>(v & 0x7f);
    v >>= 7;
  }
  while (i-- > 0) {
    p[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
    v >>= 7;
  }
}

// Bytes of a varint below 2^21: a row's payload size, a text's serial
// type (rows fit in a page of at most 64 KiB).
inline size_t SmallVarintLen(uint64_t v) {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : 3;
}

// An interior table page's cell: child page number, then the key.
inline size_t InteriorCellSize(int64_t key) {
  return 2 + 4 + VarintLen(static_cast<uint64_t>(key));
}

// A value's serial type and byte count by the leading zero bits of its
// magnitude (v, or ~v when negative): the fewest big-endian bytes that hold
// it with its sign (SQLite has no 5- or 7-byte integers), and the
// magnitudes that take the same type.
struct Width {
  uint8_t type;
  uint8_t size;
  uint64_t min_mag;
  uint64_t max_mag;
};
struct Widths {
  Width by_clz[64];
  constexpr Widths() : by_clz() {
    constexpr Width kBySize[9] = {{0, 0, 0, 0},
                                  {1, 1, 0, 0x7f},
                                  {2, 2, 0x80, 0x7fff},
                                  {3, 3, 0x8000, 0x7fffff},
                                  {4, 4, 0x800000, 0x7fffffff},
                                  {5, 6, 0x80000000, 0x7fffffffffff},
                                  {5, 6, 0x80000000, 0x7fffffffffff},
                                  {6, 8, 0x800000000000, 0x7fffffffffffffff},
                                  {6, 8, 0x800000000000, 0x7fffffffffffffff}};
    for (int clz = 0; clz < 64; ++clz) {
      const int bits = 64 - clz + 1;  // the magnitude's and the sign bit
      by_clz[clz] = kBySize[(bits + 7) / 8 > 8 ? 8 : (bits + 7) / 8];
    }
  }
};
inline constexpr Widths kWidths;

// The width of integer v.
inline const Width& WidthOf(int64_t v) {
  const uint64_t mag = static_cast<uint64_t>(v ^ (v >> 63));
  return kWidths.by_clz[__builtin_clzll(mag | 1)];
}

// Integer v's serial type and byte count in a record; with small_ints
// (SQLite's schema format 4), 0 and 1 are types 8 and 9 with no bytes.
struct IntegerCell {
  uint8_t type;
  uint8_t size;
};
inline IntegerCell IntegerCellOf(int64_t v, bool small_ints) {
  if (small_ints && static_cast<uint64_t>(v) <= 1) {
    return {static_cast<uint8_t>(8 + v), 0};
  }
  const Width& w = WidthOf(v);
  return {w.type, w.size};
}

// A little-endian word stored at `p` (unaligned).
inline void Store8(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

}  // namespace sqlite_format
}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_SQLITE_FILE_FORMAT_H_
