// What ROCm's roctracer (5.6 and later) gives generated code as
// roctracer::<domain>_support::detail::operator<<, called qualified, one
// value a line: characters as numbers, C strings and char arrays quoted and
// escaped, NULL strings as NULL, structs field by field, the rest as the
// stream writes it.
#include <hip_ostream_ops.h>
#include <hsa_ostream_ops.h>

#include <iostream>

namespace hip = roctracer::hip_support::detail;
namespace hsa = roctracer::hsa_support::detail;

int main() {
  const char* text = "say \"hi\"\\\n\t\x01";
  const char* null_text = nullptr;
  char array[8] = {'a', 'b', 0, 'c'};
  const char letter = 'A';
  const unsigned char byte = 200;
  const dim3 dims(4, 2, 1);
  const hsa_dim3_t hsa_dims = {7, 8, 9};
  hip::operator<<(std::cout, text) << '\n';
  hip::operator<<(std::cout, null_text) << '\n';
  hip::operator<<(std::cout, array) << '\n';
  hip::operator<<(std::cout, letter) << '\n';
  hip::operator<<(std::cout, byte) << '\n';
  hip::operator<<(std::cout, dims) << '\n';
  hip::operator<<(std::cout, 42u) << '\n';
  hip::operator<<(std::cout, hipMemcpyDeviceToHost) << '\n';
  hip::operator<<(std::cout, reinterpret_cast<void*>(0x1234)) << '\n';
  hsa::operator<<(std::cout, hsa_dims) << '\n';
  hsa::operator<<(std::cout, letter) << '\n';
  return 0;
}
