/* How the generated C++ stream printers (<d>_ostream_ops.h, hipApiString,
 * the hsa_api_data_pair_t printer) write one value of any argument or field
 * type: `char` strings and arrays as text (NULL as "NULL"), other pointers
 * and function pointers as addresses, other characters and enums as numbers,
 * structs through their generated operator<<, anything else (a union, an
 * opaque type) as "{...}". C++ only; header-only. */

#ifndef EXT_ARG_OSTREAM_H_
#define EXT_ARG_OSTREAM_H_

#ifdef __cplusplus

#include <cstddef>
#include <ostream>
#include <type_traits>
#include <utility>

namespace roctracer {
namespace arg_ostream {

// Whether `out << v` names an operator for T (a generated struct printer,
// or the standard library's).
template <class T, class = void>
struct Streamable : std::false_type {};
template <class T>
struct Streamable<T, decltype(void(std::declval<std::ostream&>()
                                   << std::declval<const T&>()))>
    : std::true_type {};

// Plain `char` only: text. `signed char` / `unsigned char` (int8_t,
// uint8_t) are bytes, printed as numbers.
template <class T>
struct IsChar : std::is_same<typename std::remove_cv<T>::type, char> {};

enum class Kind {
  kString,
  kPointer,
  kFunction,
  kNumber,
  kEnum,
  kStream,
  kOpaque
};

template <class T>
constexpr Kind KindOf() {
  return std::is_pointer<T>::value
             ? (std::is_function<typename std::remove_pointer<T>::type>::value
                    ? Kind::kFunction
                    : (IsChar<typename std::remove_pointer<T>::type>::value
                           ? Kind::kString
                           : Kind::kPointer))
         : std::is_enum<T>::value       ? Kind::kEnum
         : std::is_arithmetic<T>::value ? Kind::kNumber
         : Streamable<T>::value         ? Kind::kStream
                                        : Kind::kOpaque;
}

template <Kind K>
using KindTag = std::integral_constant<Kind, K>;

template <class T>
void Put(std::ostream& out, const T& v, KindTag<Kind::kString>) {
  if (v == nullptr) {
    out << "NULL";
  } else {
    out << reinterpret_cast<const char*>(v);
  }
}
template <class T>
void Put(std::ostream& out, const T& v, KindTag<Kind::kPointer>) {
  // volatile pointees too (hsakmt's event data).
  out << const_cast<const void*>(static_cast<const volatile void*>(v));
}
template <class T>
void Put(std::ostream& out, const T& v, KindTag<Kind::kFunction>) {
  out << reinterpret_cast<const void*>(v);
}
template <class T>
void Put(std::ostream& out, const T& v, KindTag<Kind::kNumber>) {
  out << +v;  // characters as numbers, as ROCm's printers show them
}
template <class T>
void Put(std::ostream& out, const T& v, KindTag<Kind::kEnum>) {
  out << static_cast<long long>(v);
}
template <class T>
void Put(std::ostream& out, const T& v, KindTag<Kind::kStream>) {
  out << v;
}
template <class T>
void Put(std::ostream& out, const T&, KindTag<Kind::kOpaque>) {
  out << "{...}";
}

// Writes `v` as described above.
template <class T>
void Put(std::ostream& out, const T& v) {
  Put(out, v, KindTag<KindOf<T>()>());
}

// A fixed-size array field: `char` as text up to the first NUL, other
// elements as a bracketed list.
template <size_t N>
void PutArray(std::ostream& out, const char (&v)[N]) {
  size_t n = 0;
  while (n < N && v[n] != 0) ++n;
  out.write(v, static_cast<std::streamsize>(n));
}
template <class T, size_t N>
void PutArray(std::ostream& out, const T (&v)[N]) {
  out << '[';
  for (size_t i = 0; i < N; ++i) {
    if (i != 0) out << ", ";
    Put(out, v[i]);
  }
  out << ']';
}

}  // namespace arg_ostream
}  // namespace roctracer

#endif /* __cplusplus */

#endif /* EXT_ARG_OSTREAM_H_ */
