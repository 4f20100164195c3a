// Value-to-string helpers shared by the generated argument printers.
//
// The generator decides, per argument, how many pointer levels may be
// followed (kLimit: never through void, functions, opaque structs, or an
// out-parameter at ENTER); the caller's max dereference depth caps it further
// at run time. NULL is printed as "NULL" and never dereferenced.
#ifndef ROCTRACER_CODEGEN_SUPPORT_ARG_FORMAT_H_
#define ROCTRACER_CODEGEN_SUPPORT_ARG_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace roctracer::codegen {

// Visitor for one argument; returning non-zero stops the iteration and that
// value is returned by IterateArgs. Shaped after rocprofiler-sdk's
// rocprofiler_callback_tracing_operation_args_cb_t.
using ArgVisitor = int (*)(uint32_t arg_index, const void* arg_value_addr,
                           int32_t arg_indirection_count, const char* arg_type,
                           const char* arg_name, const char* arg_value_str,
                           int32_t arg_dereference_count, void* user_data);

// What a `const char*` argument of the callback data holds when the tracer
// could not read the caller's string (an invalid pointer, a string running
// into unmapped memory): the text "<unreadable>", at this address. The
// runtime itself received the caller's pointer. Printed without quotes, so
// it cannot be mistaken for a string argument with that text.
extern const char kUnreadableString[];

// A parameter's type as the header spells it: clang spells
// `hsa_agent_t *`, the header `hsa_agent_t*`. Drops the blanks before a `*`
// and between `*` and a following `*` or `)`; at most `cap` - 1 bytes.
void NormalizeTypeSpelling(const char* in, char* out, size_t cap) noexcept;

// Longest string argument printed; longer ones end with "...".
constexpr size_t kMaxStringChars = 256;

void AppendEscaped(std::string* out, const char* s, size_t max_chars);
void AppendAddress(std::string* out, uintptr_t p);
void AppendInt(std::string* out, long long v);
void AppendUint(std::string* out, unsigned long long v);
void AppendDouble(std::string* out, double v);

// Structs the generator knows are printed field by field by a generated
// specialization; anything else of class or union type prints as "{...}".
template <class T>
struct StructFormatter {
  static constexpr bool kKnown = false;
  static void Format(std::string* out, const T&) { *out += "{...}"; }
};

// Enums the generator knows print their enumerator's name; a value without
// one (or an unknown enum) prints as its integer.
template <class T>
struct EnumNames {
  static const char* Get(long long) { return nullptr; }
};

template <class T>
void FormatScalar(std::string* out, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    *out += v ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    // Read the bytes as the underlying integer: applications pass values
    // outside an enum's declared range (HSA's extension attributes), and
    // loading those as the enum type is undefined behaviour.
    std::underlying_type_t<T> raw;
    std::memcpy(&raw, &v, sizeof(raw));
    if (const char* name = EnumNames<T>::Get(static_cast<long long>(raw))) {
      *out += name;
    } else {
      FormatScalar(out, raw);
    }
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    AppendInt(out, static_cast<long long>(v));
  } else if constexpr (std::is_integral_v<T>) {
    AppendUint(out, static_cast<unsigned long long>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    AppendDouble(out, static_cast<double>(v));
  } else if constexpr (std::is_pointer_v<T>) {
    AppendAddress(out, reinterpret_cast<uintptr_t>(v));
  } else {
    StructFormatter<T>::Format(out, v);
  }
}

// Formats `v`, following at most min(kLimit, budget) pointer levels.
// Returns how many times it dereferenced.
template <int kLimit, class T>
int FormatValue(std::string* out, const T& v, int budget) {
  if constexpr (std::is_pointer_v<T>) {
    if (v == nullptr) {
      *out += "NULL";
      return 0;
    }
    using Pointee = std::remove_pointer_t<T>;
    if constexpr (kLimit > 0 && std::is_same_v<Pointee, const char>) {
      if (v == kUnreadableString) {
        *out += kUnreadableString;
        return 0;
      }
      if (budget > 0) {
        AppendEscaped(out, v, kMaxStringChars);
        return 1;
      }
    } else if constexpr (kLimit > 0 && !std::is_void_v<Pointee> &&
                         !std::is_function_v<Pointee>) {
      if (budget > 0) return 1 + FormatValue<kLimit - 1>(out, *v, budget - 1);
    }
    AppendAddress(out, reinterpret_cast<uintptr_t>(v));
    return 0;
  } else {
    FormatScalar(out, v);
    return 0;
  }
}

// Fixed-size array fields inside structs.
template <class T, size_t N>
void FormatArray(std::string* out, const T (&a)[N]) {
  if constexpr (std::is_same_v<T, char>) {
    size_t n = 0;
    while (n < N && a[n] != '\0') ++n;
    std::string tmp(a, n);
    AppendEscaped(out, tmp.c_str(), N);
  } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> ||
                       std::is_pointer_v<T>) {
    constexpr size_t kShown = 16;
    *out += "[";
    for (size_t i = 0; i < N && i < kShown; ++i) {
      if (i) *out += ", ";
      FormatScalar(out, a[i]);
    }
    if (N > kShown) *out += ", ...";
    *out += "]";
  } else {
    *out += "[...]";
  }
}

template <class T>
constexpr int32_t IndirectionCount() {
  if constexpr (std::is_pointer_v<T>) {
    using P = std::remove_cv_t<std::remove_pointer_t<T>>;
    if constexpr (std::is_function_v<P>) {
      return 1;
    } else {
      return 1 + IndirectionCount<P>();
    }
  } else {
    return 0;
  }
}

// An integer in decimal, an address as AppendAddress writes it, into `buf`
// (room for 24 bytes); the text's end.
char* PutDecimal(char* buf, long long v) noexcept;
char* PutDecimal(char* buf, unsigned long long v) noexcept;
char* PutAddress(char* buf, uintptr_t p) noexcept;

// The text PutAddress writes, placed to end at buf + 18 with a NUL after it
// (`buf`: room for 19 bytes): where it starts, its length in *size. The
// printers' common value: with SSE2 its 16 digits are made at once (two
// nibbles a byte spread into a byte each, '0' added, 'a' - '0' - 10 more
// where above 9) and the leading zeros skipped by where the text starts,
// with no loop and no table.
inline const char* AddressText(char* buf, uintptr_t p, size_t* size) noexcept {
#if defined(__SSE2__) && defined(__x86_64__)
  if (p == 0) {
    std::memcpy(buf, "NULL", 5);
    *size = 4;
    return buf;
  }
  // The most significant byte first, as the text reads.
  const __m128i bytes = _mm_cvtsi64_si128(
      static_cast<long long>(__builtin_bswap64(static_cast<uint64_t>(p))));
  const __m128i low4 = _mm_set1_epi8(0x0f);
  const __m128i nibbles =
      _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(bytes, 4), low4),
                        _mm_and_si128(bytes, low4));
  const __m128i letters = _mm_and_si128(
      _mm_cmpgt_epi8(nibbles, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
  _mm_storeu_si128(
      reinterpret_cast<__m128i*>(buf + 2),
      _mm_add_epi8(_mm_add_epi8(nibbles, _mm_set1_epi8('0')), letters));
  buf[18] = '\0';
  const size_t digits =
      static_cast<size_t>(64 - __builtin_clzll(static_cast<uint64_t>(p)) + 3) /
      4;
  char* const start = buf + 16 - digits;
  std::memcpy(start, "0x", 2);
  *size = digits + 2;
  return start;
#else
  char* const end = PutAddress(buf, p);
  *end = '\0';
  *size = static_cast<size_t>(end - buf);
  return buf;
#endif
}

// Formats one argument and hands it to the visitor. The values that are
// most arguments (integers, enumerators, addresses printed as such) are
// formatted on the stack, or are the enumerator's name itself: the same
// text as FormatValue's, without a std::string.
template <int kLimit, class T>
int VisitArg(ArgVisitor visitor, void* user, int32_t max_deref, uint32_t index,
             const char* type, const char* name, const T& value) {
  char buf[24];
  (void)buf;  // unused where T is a float or a struct
  const char* text = nullptr;
  if constexpr (std::is_same_v<T, bool>) {
    text = value ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    std::underlying_type_t<T> raw;
    std::memcpy(&raw, &value, sizeof(raw));
    text = EnumNames<T>::Get(static_cast<long long>(raw));
    if (text == nullptr) {
      if constexpr (std::is_signed_v<std::underlying_type_t<T>>) {
        *PutDecimal(buf, static_cast<long long>(raw)) = '\0';
      } else {
        *PutDecimal(buf, static_cast<unsigned long long>(raw)) = '\0';
      }
      text = buf;
    }
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    *PutDecimal(buf, static_cast<long long>(value)) = '\0';
    text = buf;
  } else if constexpr (std::is_integral_v<T>) {
    *PutDecimal(buf, static_cast<unsigned long long>(value)) = '\0';
    text = buf;
  } else if constexpr (std::is_pointer_v<T>) {
    using Pointee = std::remove_pointer_t<T>;
    constexpr bool kMayFollow =
        kLimit > 0 && !std::is_void_v<Pointee> && !std::is_function_v<Pointee>;
    // Printed as an address unless FormatValue would follow it, or it is
    // the string the tracer put in place of an unreadable one.
    bool as_address = value == nullptr || !kMayFollow || max_deref <= 0;
    if constexpr (kLimit > 0 && std::is_same_v<Pointee, const char>) {
      as_address = as_address && value != kUnreadableString;
    }
    if (as_address) {
      *PutAddress(buf, reinterpret_cast<uintptr_t>(value)) = '\0';
      text = buf;
    }
  }
  if (text != nullptr) {
    return visitor(index, &value, IndirectionCount<T>(), type, name, text, 0,
                   user);
  }
  std::string formatted;
  const int derefs = FormatValue<kLimit>(&formatted, value, max_deref);
  return visitor(index, &value, IndirectionCount<T>(), type, name,
                 formatted.c_str(), derefs, user);
}

// Visitor of IterateValues: an argument's index, its type and name as the
// header spells them, and its value printed as VisitArg prints it at EXIT
// with no pointer followed: `size` bytes at `value` (NUL-terminated; the
// size saves a writer measuring it).
using ValueVisitor = void (*)(uint32_t arg_index, const char* arg_type,
                              const char* arg_name, const char* value,
                              size_t size, void* user_data);

// A value VisitValue cannot print into its buffer (a struct, a float, a
// string): formatted into a string, out of the common path's frame.
template <int kLimit, class T>
__attribute__((noinline)) void VisitFormatted(ValueVisitor visitor, void* user,
                                              uint32_t index, const char* type,
                                              const char* name,
                                              const T& value) {
  std::string formatted;
  FormatValue<kLimit>(&formatted, value, 0);
  visitor(index, type, name, formatted.c_str(), formatted.size(), user);
}

// Every argument passes through VisitValue, whose one local array is
// written only by PutDecimal (at most 21 bytes and a NUL) and AddressText
// (19): bounded by construction, so the frame goes without a stack guard
// (-fstack-protector-strong would check it on every argument).
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define ROCTRACER_NO_STACK_GUARD __attribute__((no_stack_protector))
#endif
#endif
#ifndef ROCTRACER_NO_STACK_GUARD
#define ROCTRACER_NO_STACK_GUARD
#endif

// VisitArg at EXIT with a max dereference depth of 0, for a ValueVisitor.
template <int kLimit, class T>
ROCTRACER_NO_STACK_GUARD void VisitValue(ValueVisitor visitor, void* user,
                                         uint32_t index, const char* type,
                                         const char* name, const T& value) {
  char buf[24];
  (void)buf;  // unused where T is a float or a struct
  const char* text = nullptr;
  char* end = nullptr;
  if constexpr (std::is_same_v<T, bool>) {
    if (value) {
      visitor(index, type, name, "true", 4, user);
    } else {
      visitor(index, type, name, "false", 5, user);
    }
    return;
  } else if constexpr (std::is_enum_v<T>) {
    std::underlying_type_t<T> raw;
    std::memcpy(&raw, &value, sizeof(raw));
    text = EnumNames<T>::Get(static_cast<long long>(raw));
    if (text != nullptr) {
      visitor(index, type, name, text, std::strlen(text), user);
      return;
    }
    if constexpr (std::is_signed_v<std::underlying_type_t<T>>) {
      end = PutDecimal(buf, static_cast<long long>(raw));
    } else {
      end = PutDecimal(buf, static_cast<unsigned long long>(raw));
    }
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    end = PutDecimal(buf, static_cast<long long>(value));
  } else if constexpr (std::is_integral_v<T>) {
    end = PutDecimal(buf, static_cast<unsigned long long>(value));
  } else if constexpr (std::is_pointer_v<T>) {
    using Pointee = std::remove_pointer_t<T>;
    if constexpr (kLimit > 0 && std::is_same_v<Pointee, const char>) {
      if (value != nullptr && value == kUnreadableString) {
        visitor(index, type, name, kUnreadableString,
                std::strlen(kUnreadableString), user);
        return;
      }
    }
    size_t size;
    text = AddressText(buf, reinterpret_cast<uintptr_t>(value), &size);
    visitor(index, type, name, text, size, user);
    return;
  }
  if (end != nullptr) {
    *end = '\0';
    visitor(index, type, name, buf, static_cast<size_t>(end - buf), user);
    return;
  }
  VisitFormatted<kLimit>(visitor, user, index, type, name, value);
}

}  // namespace roctracer::codegen

#endif  // ROCTRACER_CODEGEN_SUPPORT_ARG_FORMAT_H_
