// Shared state of the generated fake runtime (libfake_runtime.so) and the
// generated forwarding tests: the bytes of the last call's arguments and the
// bytes the next call must return.
#ifndef TESTS_INTERCEPT_FAKE_RECORD_H_
#define TESTS_INTERCEPT_FAKE_RECORD_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fake {

constexpr size_t kMaxBytes = 1024;

struct Record {
  uint32_t domain;
  uint32_t op;
  int calls;
  size_t size;
  unsigned char bytes[kMaxBytes];
};

// The arguments' bytes, back to back, each in its own type's size.
template <class... A>
size_t Pack(unsigned char* out, const A&... a) {
  size_t n = 0;
  ((n + sizeof(a) <= kMaxBytes ? (std::memcpy(out + n, &a, sizeof(a)), 0) : 0,
    n += sizeof(a)),
   ...);
  (void)out;
  return n;
}

// A value of T whose every byte is derived from `seed` (for structs passed
// by value).
template <class T>
T Pattern(int seed) {
  static_assert(std::is_trivially_copyable<T>::value, "byte pattern");
  T v{};
  unsigned char b[sizeof(T)];
  for (size_t i = 0; i < sizeof(T); ++i) {
    b[i] = static_cast<unsigned char>(seed * 31 + i * 7 + 1);
  }
  std::memcpy(&v, b, sizeof(T));
  return v;
}

}  // namespace fake

extern "C" {
// Defined by libfake_runtime.so.
fake::Record* fake_last_record();
void fake_begin(const void* ret, size_t size);
const unsigned char* fake_return_bytes();
}

namespace fake {

template <class... A>
void Note(uint32_t domain, uint32_t op, const A&... a) {
  Record* r = fake_last_record();
  r->domain = domain;
  r->op = op;
  ++r->calls;
  r->size = Pack(r->bytes, a...);
}

template <class T>
T Returned() {
  T v{};
  std::memcpy(static_cast<void*>(&v), fake_return_bytes(), sizeof(T));
  return v;
}

}  // namespace fake

#endif  // TESTS_INTERCEPT_FAKE_RECORD_H_
