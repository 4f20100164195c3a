// Just enough of the protobuf wire format to write Perfetto's trace packets
// without a protobuf runtime on the tracer thread: varints, length-delimited
// fields, and nested messages built into a caller-owned string.
#ifndef ROCTRACE_WRITERS_PROTO_ENCODER_H_
#define ROCTRACE_WRITERS_PROTO_ENCODER_H_

#include <cstdint>
#include <string>

namespace roctrace {
namespace proto {

inline void Varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

inline void Tag(std::string* out, uint32_t field, uint32_t wire_type) {
  Varint(out, (static_cast<uint64_t>(field) << 3) | wire_type);
}

inline void UInt(std::string* out, uint32_t field, uint64_t v) {
  Tag(out, field, 0);
  Varint(out, v);
}

inline void Bytes(std::string* out, uint32_t field, const std::string& bytes) {
  Tag(out, field, 2);
  Varint(out, bytes.size());
  out->append(bytes);
}

}  // namespace proto
}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_PROTO_ENCODER_H_
