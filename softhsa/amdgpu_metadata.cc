#include "softhsa/amdgpu_metadata.h"

#include <elf.h>

#include <cstring>
#include <memory>

namespace softhsa {
namespace {

constexpr uint32_t kNtAmdgpuMetadata = 32;  // NT_AMDGPU_METADATA
constexpr int kMaxDepth = 16;

// A decoded MessagePack value: the subset the metadata uses (maps, arrays,
// strings, integers, booleans, nil; floats and binaries are skipped).
struct Value {
  enum Kind { kNil, kInt, kString, kArray, kMap, kOther } kind = kNil;
  int64_t integer = 0;
  std::string text;
  std::vector<Value> items;                      // an array's
  std::vector<std::pair<Value, Value>> entries;  // a map's
  const Value* Get(const char* key) const {
    for (const auto& [k, v] : entries) {
      if (k.kind == kString && k.text == key) return &v;
    }
    return nullptr;
  }
};

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}

  bool Read(Value* v, int depth = 0) {
    if (depth > kMaxDepth || p_ >= end_) return false;
    uint8_t b = *p_++;
    if (b <= 0x7f) return Int(v, b);
    if (b >= 0xe0) return Int(v, static_cast<int8_t>(b));
    if ((b & 0xf0) == 0x80) return Map(v, b & 0x0f, depth);
    if ((b & 0xf0) == 0x90) return Array(v, b & 0x0f, depth);
    if ((b & 0xe0) == 0xa0) return String(v, b & 0x1f);
    uint64_t n;
    switch (b) {
      case 0xc0:
        v->kind = Value::kNil;
        return true;
      case 0xc2:
      case 0xc3:
        return Int(v, b - 0xc2);
      case 0xcc:
      case 0xcd:
      case 0xce:
      case 0xcf:
        return Unsigned(1u << (b - 0xcc), &n) &&
               Int(v, static_cast<int64_t>(n));
      case 0xd0:
      case 0xd1:
      case 0xd2:
      case 0xd3: {
        const unsigned width = 1u << (b - 0xd0);
        if (!Unsigned(width, &n)) return false;
        // Sign-extend from `width` bytes.
        const unsigned shift = 64 - 8 * width;
        return Int(v, static_cast<int64_t>(n << shift) >> shift);
      }
      case 0xd9:
      case 0xda:
      case 0xdb:
        return Unsigned(1u << (b - 0xd9), &n) && String(v, n);
      case 0xdc:
      case 0xdd:
        return Unsigned(2u << (b - 0xdc), &n) && Array(v, n, depth);
      case 0xde:
      case 0xdf:
        return Unsigned(2u << (b - 0xde), &n) && Map(v, n, depth);
      case 0xc4:
      case 0xc5:
      case 0xc6:  // bin 8/16/32
        return Unsigned(1u << (b - 0xc4), &n) && Skip(n, v);
      case 0xca:
        return Skip(4, v);
      case 0xcb:
        return Skip(8, v);
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:  // fixext 1..16: a type byte and 2^k bytes
        return Skip(1 + (1u << (b - 0xd4)), v);
      case 0xc7:
      case 0xc8:
      case 0xc9:  // ext 8/16/32
        return Unsigned(1u << (b - 0xc7), &n) && Skip(n + 1, v);
      default:
        return false;
    }
  }

 private:
  bool Unsigned(unsigned width, uint64_t* out) {
    if (static_cast<size_t>(end_ - p_) < width) return false;
    uint64_t n = 0;
    for (unsigned i = 0; i < width; ++i) n = (n << 8) | *p_++;  // big-endian
    *out = n;
    return true;
  }
  bool Int(Value* v, int64_t n) {
    v->kind = Value::kInt;
    v->integer = n;
    return true;
  }
  bool String(Value* v, uint64_t n) {
    if (static_cast<uint64_t>(end_ - p_) < n) return false;
    v->kind = Value::kString;
    v->text.assign(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return true;
  }
  bool Skip(uint64_t n, Value* v) {
    if (static_cast<uint64_t>(end_ - p_) < n) return false;
    p_ += n;
    v->kind = Value::kOther;
    return true;
  }
  bool Array(Value* v, uint64_t n, int depth) {
    // Every element takes at least one byte: a bound before reserving.
    if (static_cast<uint64_t>(end_ - p_) < n) return false;
    v->kind = Value::kArray;
    v->items.resize(n);
    for (auto& item : v->items) {
      if (!Read(&item, depth + 1)) return false;
    }
    return true;
  }
  bool Map(Value* v, uint64_t n, int depth) {
    if (static_cast<uint64_t>(end_ - p_) < 2 * n) return false;
    v->kind = Value::kMap;
    v->entries.resize(n);
    for (auto& [key, value] : v->entries) {
      if (!Read(&key, depth + 1) || !Read(&value, depth + 1)) return false;
    }
    return true;
  }

  const uint8_t* p_;
  const uint8_t* end_;
};

uint64_t Align4(uint64_t n) { return (n + 3) & ~uint64_t{3}; }

void Collect(const Value& root, KernelArgs* out) {
  const Value* kernels = root.Get("amdhsa.kernels");
  if (kernels == nullptr || kernels->kind != Value::kArray) return;
  for (const Value& k : kernels->items) {
    const Value* name = k.Get(".name");
    if (name == nullptr || name->kind != Value::kString) continue;
    std::vector<KernelArg>& args = (*out)[name->text];
    const Value* list = k.Get(".args");
    if (list == nullptr || list->kind != Value::kArray) continue;
    for (const Value& a : list->items) {
      KernelArg arg;
      if (const Value* v = a.Get(".name"); v && v->kind == Value::kString) {
        arg.name = v->text;
      }
      if (const Value* v = a.Get(".value_kind");
          v && v->kind == Value::kString) {
        arg.value_kind = v->text;
      }
      if (const Value* v = a.Get(".offset"); v && v->kind == Value::kInt) {
        arg.offset = static_cast<uint64_t>(v->integer);
      }
      if (const Value* v = a.Get(".size"); v && v->kind == Value::kInt) {
        arg.size = static_cast<uint64_t>(v->integer);
      }
      args.push_back(std::move(arg));
    }
  }
}

}  // namespace

KernelArgs ReadKernelArgs(const uint8_t* bytes, size_t size) {
  KernelArgs out;
  if (bytes == nullptr || size < sizeof(Elf64_Ehdr)) return out;
  Elf64_Ehdr eh;
  memcpy(&eh, bytes, sizeof(eh));
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
      uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr) > size - eh.e_shoff) {
    return out;
  }
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    memcpy(&sh, bytes + eh.e_shoff + i * sizeof(sh), sizeof(sh));
    if (sh.sh_type != SHT_NOTE || sh.sh_offset > size ||
        sh.sh_size > size - sh.sh_offset) {
      continue;
    }
    const uint8_t* p = bytes + sh.sh_offset;
    uint64_t left = sh.sh_size;
    // Notes: namesz, descsz, type, then the name and the desc, each padded
    // to 4 bytes.
    while (left >= sizeof(Elf64_Nhdr)) {
      Elf64_Nhdr nh;
      memcpy(&nh, p, sizeof(nh));
      const uint64_t name_bytes = Align4(nh.n_namesz);
      const uint64_t desc_bytes = Align4(nh.n_descsz);
      if (name_bytes + desc_bytes > left - sizeof(nh)) break;
      const char* name = reinterpret_cast<const char*>(p + sizeof(nh));
      const uint8_t* desc = p + sizeof(nh) + name_bytes;
      if (nh.n_type == kNtAmdgpuMetadata && nh.n_namesz == 7 &&
          memcmp(name, "AMDGPU", 7) == 0) {
        Value root;
        if (Reader(desc, nh.n_descsz).Read(&root) && root.kind == Value::kMap) {
          Collect(root, &out);
        }
      }
      p += sizeof(nh) + name_bytes + desc_bytes;
      left -= sizeof(nh) + name_bytes + desc_bytes;
    }
  }
  return out;
}

}  // namespace softhsa
