// Just enough of the protobuf wire format to write Perfetto's trace packets
// without a protobuf runtime on the writer thread: varints, length-delimited
// fields, and nested messages written in place into one output buffer (a
// nested message reserves one length byte and moves its body only in the
// rare case it outgrows 127 bytes).
#ifndef ROCTRACE_WRITERS_PROTO_ENCODER_H_
#define ROCTRACE_WRITERS_PROTO_ENCODER_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace roctrace {
namespace proto {

// A growable byte buffer written through a raw pointer: a field costs a few
// stores, not a std::string append per byte run.
class Buffer {
 public:
  const char* data() const { return bytes_.data(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }

  void Varint(uint64_t v) {
    Reserve(10);
    char* p = &bytes_[size_];
    while (v >= 0x80) {
      *p++ = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<char>(v);
    size_ = static_cast<size_t>(p - bytes_.data());
  }
  void Tag(uint32_t field, uint32_t wire_type) {
    Varint((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  void UInt(uint32_t field, uint64_t v) {
    Tag(field, 0);
    Varint(v);
  }
  void Fixed64(uint32_t field, uint64_t v) {
    Tag(field, 1);
    Reserve(8);
    for (int i = 0; i < 8; ++i) {
      bytes_[size_++] = static_cast<char>((v >> (8 * i)) & 0xff);
    }
  }
  void Bytes(uint32_t field, const std::string& bytes) {
    Tag(field, 2);
    Varint(bytes.size());
    Reserve(bytes.size());
    std::memcpy(&bytes_[size_], bytes.data(), bytes.size());
    size_ += bytes.size();
  }
  // Opens a nested message `field`; returns what Close needs.
  size_t Open(uint32_t field) {
    Tag(field, 2);
    Reserve(1);
    bytes_[size_++] = '\0';
    return size_;
  }
  // Writes the length of the nested message opened at `body`.
  void Close(size_t body) {
    size_t length = size_ - body;
    if (length < 0x80) {
      bytes_[body - 1] = static_cast<char>(length);
      return;
    }
    char prefix[10];
    size_t n = 0;
    for (size_t v = length;; v >>= 7) {
      prefix[n++] = static_cast<char>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80) break;
    }
    Reserve(n - 1);
    std::memmove(&bytes_[body - 1 + n], &bytes_[body], length);
    std::memcpy(&bytes_[body - 1], prefix, n);
    size_ += n - 1;
  }

 private:
  void Reserve(size_t n) {
    if (size_ + n > bytes_.size()) {
      bytes_.resize(std::max<size_t>(2 * bytes_.size(), size_ + n + 4096));
    }
  }

  std::string bytes_;  // capacity in use; the first size_ bytes are data
  size_t size_ = 0;
};

}  // namespace proto
}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_PROTO_ENCODER_H_
