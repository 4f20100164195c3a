// The bytes a writer has formatted and not yet written to its file. A
// record is written through a plain pointer: Reserve room for the largest
// record, store its bytes, Commit where it ends. Appending field by field to
// a std::string (or through a member size) makes the compiler reload the
// size after every byte stored, which was most of the formatting cost.
#ifndef ROCTRACE_WRITERS_BYTE_BUFFER_H_
#define ROCTRACE_WRITERS_BYTE_BUFFER_H_

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace roctrace {

class ByteBuffer {
 public:
  const char* data() const { return bytes_.get(); }
  char* data() { return bytes_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }

  // Where the next `n` bytes go (valid until the next Reserve).
  char* Reserve(size_t n) {
    if (n > capacity_ - size_) Grow(size_ + n);
    return bytes_.get() + size_;
  }
  // The bytes up to `end` (a pointer from the last Reserve) are data.
  void Commit(const char* end) {
    size_ = static_cast<size_t>(end - bytes_.get());
  }
  void Append(const char* text, size_t n) {
    std::memcpy(Reserve(n), text, n);
    size_ += n;
  }
  void Append(const std::string& text) { Append(text.data(), text.size()); }
  // Drops the first `n` bytes (what remains moves to the start).
  void DropFront(size_t n) {
    std::memmove(bytes_.get(), bytes_.get() + n, size_ - n);
    size_ -= n;
  }

  // The bytes start on a page boundary, as OutputFile's writes of them do.
  static constexpr size_t kAlignment = 4096;
  // The first allocation: what a writer holds before it writes (OutputFile:
  // up to 1.5 MiB and a record) without growing, each growth a copy of all
  // held (pages not touched yet cost nothing).
  static constexpr size_t kFirstCapacity = 2 << 20;

 private:
  // Out of line: a record's formatting, which Reserve is inlined into,
  // keeps a small frame (no registers saved for a call it rarely makes).
  __attribute__((noinline)) void Grow(size_t need) {
    size_t capacity = capacity_ * 2 > need + 4096 ? capacity_ * 2 : need + 4096;
    if (capacity < kFirstCapacity) capacity = kFirstCapacity;
    std::unique_ptr<char[], Free> bytes(static_cast<char*>(
        ::operator new[](capacity, std::align_val_t(kAlignment))));
    if (size_ != 0) std::memcpy(bytes.get(), bytes_.get(), size_);
    bytes_ = std::move(bytes);
    capacity_ = capacity;
  }
  struct Free {
    void operator()(char* p) const {
      ::operator delete[](p, std::align_val_t(kAlignment));
    }
  };

  std::unique_ptr<char[], Free> bytes_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_BYTE_BUFFER_H_
