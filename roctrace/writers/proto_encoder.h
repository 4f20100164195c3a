// Just enough of the protobuf wire format to write Perfetto's trace packets
// without a protobuf runtime on the writer thread: varints, length-delimited
// fields, and nested messages written in place into one output buffer (a
// nested message reserves one length byte and moves its body only in the
// rare case it outgrows 127 bytes).
//
// Two ways to write: Buffer's field calls (bounds-checked per field, any
// size), and the Put* functions on a raw pointer into room reserved for a
// whole packet, for the packets written per event, whose size is bounded.
#ifndef ROCTRACE_WRITERS_PROTO_ENCODER_H_
#define ROCTRACE_WRITERS_PROTO_ENCODER_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "roctrace/writers/byte_buffer.h"

namespace roctrace {
namespace proto {

constexpr uint32_t kVarint = 0;
constexpr uint32_t kFixed64 = 1;
constexpr uint32_t kLengthDelimited = 2;
constexpr size_t kMaxVarint = 10;

// A field's key, for fields whose key is one byte (1..15).
template <uint32_t field, uint32_t wire_type>
constexpr char Key() {
  static_assert(field >= 1 && field <= 15, "a one-byte key");
  return static_cast<char>((field << 3) | wire_type);
}

inline char* PutVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}
// A nested message known to stay under 128 bytes: its one length byte is
// at `body - 1`, filled by CloseShort.
template <uint32_t field>
char* OpenShort(char* p) {
  *p++ = Key<field, kLengthDelimited>();
  return p + 1;
}
inline void CloseShort(char* body, const char* end) {
  body[-1] = static_cast<char>(end - body);
}

class Buffer : public ByteBuffer {
 public:
  void Varint(uint64_t v) { Commit(PutVarint(Reserve(kMaxVarint), v)); }
  void Tag(uint32_t field, uint32_t wire_type) {
    Varint((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  void UInt(uint32_t field, uint64_t v) {
    Tag(field, kVarint);
    Varint(v);
  }
  void Fixed64(uint32_t field, uint64_t v) {
    Tag(field, kFixed64);
    char* p = Reserve(8);
    for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    Commit(p + 8);
  }
  void Bytes(uint32_t field, const std::string& bytes) {
    Tag(field, kLengthDelimited);
    Varint(bytes.size());
    Append(bytes);
  }
  // Opens a nested message `field`; returns what Close needs.
  size_t Open(uint32_t field) {
    Tag(field, kLengthDelimited);
    Append("", 1);
    return size();
  }
  // Writes the length of the nested message opened at `body`.
  void Close(size_t body) {
    size_t length = size() - body;
    if (length < 0x80) {
      data()[body - 1] = static_cast<char>(length);
      return;
    }
    char prefix[kMaxVarint];
    const size_t n = static_cast<size_t>(PutVarint(prefix, length) - prefix);
    Reserve(n - 1);
    char* bytes = data();
    std::memmove(bytes + body - 1 + n, bytes + body, length);
    std::memcpy(bytes + body - 1, prefix, n);
    Commit(bytes + size() + n - 1);
  }
};

}  // namespace proto
}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_PROTO_ENCODER_H_
