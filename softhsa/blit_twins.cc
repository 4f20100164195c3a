// Host twins of the blit kernels of HIP's runtime (ROCclr's
// "__amd_rocclr_*" OpenCL kernels, built at run time for the agent), so
// that the copies and fills HIP runs as kernels move the bytes. Each reads
// its arguments where the OpenCL kernel ABI puts them (each argument at the
// next multiple of its size) and does, for the work-items of one workgroup,
// what the kernel's work-items do. HIP releases changed some of these
// kernels' arguments under the same name: the kernel's metadata (its
// arguments' names and offsets) picks the twin of that layout, and a layout
// no twin knows gets none (the kernel is reported, not misread).
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "softhsa/twins.h"

namespace softhsa {
namespace {

template <typename T>
T Arg(const void* kernarg, size_t offset) {
  T v;
  memcpy(&v, static_cast<const uint8_t*>(kernarg) + offset, sizeof(T));
  return v;
}

// The global ids of a 1D workgroup's work-items inside the grid.
struct Range1D {
  uint64_t begin, end;
};
Range1D Items(const hsa_kernel_dispatch_packet_t* p, uint32_t wg) {
  uint64_t begin = uint64_t{wg} * p->workgroup_size_x;
  uint64_t end =
      std::min<uint64_t>(begin + p->workgroup_size_x, p->grid_size_x);
  return {begin, end};
}

// copyBuffer(uchar* src, uchar* dst, ulong srcOrigin, ulong dstOrigin,
// ulong size, uint remain): work-item i < size - 1 copies 4 bytes at
// origin + 4i, work-item size - 1 the last `remain` bytes.
void CopyBuffer(const void* k, const hsa_kernel_dispatch_packet_t* p,
                uint32_t x, uint32_t, uint32_t) {
  auto* src = Arg<const uint8_t*>(k, 0) + Arg<uint64_t>(k, 16);
  auto* dst = Arg<uint8_t*>(k, 8) + Arg<uint64_t>(k, 24);
  const uint64_t size = Arg<uint64_t>(k, 32);
  const uint32_t remain = Arg<uint32_t>(k, 40);
  Range1D r = Items(p, x);
  for (uint64_t i = r.begin; i < r.end && i < size; ++i) {
    memcpy(dst + 4 * i, src + 4 * i, i + 1 < size ? 4 : remain);
  }
}

// copyBufferAligned(uint* src, uint* dst, ulong srcOrigin, ulong dstOrigin,
// ulong size, uint alignment): origins and size in units of `alignment`
// bytes; work-item i copies unit i.
void CopyBufferAligned(const void* k, const hsa_kernel_dispatch_packet_t* p,
                       uint32_t x, uint32_t, uint32_t) {
  const uint64_t unit = Arg<uint32_t>(k, 40);
  auto* src = Arg<const uint8_t*>(k, 0) + Arg<uint64_t>(k, 16) * unit;
  auto* dst = Arg<uint8_t*>(k, 8) + Arg<uint64_t>(k, 24) * unit;
  const uint64_t size = Arg<uint64_t>(k, 32);
  Range1D r = Items(p, x);
  for (uint64_t i = r.begin; i < r.end && i < size; ++i) {
    memcpy(dst + unit * i, src + unit * i, unit);
  }
}

// copyBuffer(uchar* src, uchar* dst, ulong size, uint remainder,
// uint aligned_size, ulong end_ptr, uint next_chunk[, uint workgroup_size])
// (HIP 6.1 on; the workgroup size argument later): work-item i copies
// elements i, i + next_chunk, ... of `aligned_size` bytes (16, else 4) below
// end_ptr; work-item 0 also the last `remainder` bytes of `size`.
template <bool kWorkgroupSizeArg>
void CopyBufferChunked(const void* k, const hsa_kernel_dispatch_packet_t* p,
                       uint32_t x, uint32_t, uint32_t) {
  const auto* src = Arg<const uint8_t*>(k, 0);
  auto* dst = Arg<uint8_t*>(k, 8);
  const uint64_t size = Arg<uint64_t>(k, 16);
  const uint32_t remainder = Arg<uint32_t>(k, 24);
  const uint64_t unit = Arg<uint32_t>(k, 28) == 16 ? 16 : 4;
  const uint64_t end = Arg<uint64_t>(k, 32);
  const uint64_t stride = Arg<uint32_t>(k, 40);
  const uint64_t group =
      kWorkgroupSizeArg ? Arg<uint32_t>(k, 44) : p->workgroup_size_x;
  const uint64_t base = reinterpret_cast<uint64_t>(dst);
  if (stride == 0 || end < base) return;
  const uint64_t elements = (end - base + unit - 1) / unit;
  for (uint64_t l = 0; l < p->workgroup_size_x; ++l) {
    const uint64_t id = uint64_t{x} * group + l;
    for (uint64_t e = id; e < elements; e += stride) {
      memcpy(dst + e * unit, src + e * unit, unit);
    }
    if (id == 0 && remainder != 0 && remainder <= size) {
      memcpy(dst + size - remainder, src + size - remainder, remainder);
    }
  }
}

// fillBufferAligned(void* buf, uchar* pattern, uint pattern_size,
// uint alignment, ulong end_ptr, uint next_chunk[, uint workgroup_size])
// (HIP 6.1 on; the workgroup size argument later): elements of `alignment`
// bytes (16, 8, 4, 2, else 1); work-item i writes the pattern (pattern_size
// elements) at element i * pattern_size, then every next_chunk elements
// further, below end_ptr.
template <bool kWorkgroupSizeArg>
void FillBufferChunked(const void* k, const hsa_kernel_dispatch_packet_t* p,
                       uint32_t x, uint32_t, uint32_t) {
  auto* buf = Arg<uint8_t*>(k, 0);
  const auto* pattern = Arg<const uint8_t*>(k, 8);
  const uint64_t elements = Arg<uint32_t>(k, 16);
  const uint32_t alignment = Arg<uint32_t>(k, 20);
  const uint64_t end = Arg<uint64_t>(k, 24);
  const uint64_t stride = Arg<uint32_t>(k, 32);
  const uint64_t unit =
      alignment == 16 || alignment == 8 || alignment == 4 || alignment == 2
          ? alignment
          : 1;
  const uint64_t group =
      kWorkgroupSizeArg ? Arg<uint32_t>(k, 36) : p->workgroup_size_x;
  if (buf == nullptr || pattern == nullptr || stride == 0) return;
  for (uint64_t l = 0; l < p->workgroup_size_x; ++l) {
    const uint64_t id = uint64_t{x} * group + l;
    for (uint64_t e = id * elements;
         reinterpret_cast<uint64_t>(buf + e * unit) < end; e += stride) {
      memcpy(buf + e * unit, pattern, elements * unit);
    }
  }
}

// The one non-null buffer of bufUChar/UShort/UInt/ULong gives the element
// width; the pattern is `pattern_size` elements.
struct FillTarget {
  uint8_t* base;
  size_t width;
};
FillTarget Target(const void* k) {
  for (size_t i = 0; i < 4; ++i) {
    if (auto* b = Arg<uint8_t*>(k, 8 * i)) return {b, size_t{1} << i};
  }
  return {nullptr, 0};
}

// fillBufferAligned(uchar*, ushort*, uint*, ulong*, uchar* pattern,
// uint patternSize, ulong offset, ulong size): work-item i < size writes the
// pattern at element offset + i * patternSize.
void FillBufferAligned(const void* k, const hsa_kernel_dispatch_packet_t* p,
                       uint32_t x, uint32_t, uint32_t) {
  FillTarget t = Target(k);
  const auto* pattern = Arg<const uint8_t*>(k, 32);
  const uint64_t elements = Arg<uint32_t>(k, 40);
  const uint64_t offset = Arg<uint64_t>(k, 48);
  const uint64_t size = Arg<uint64_t>(k, 56);
  if (t.base == nullptr || pattern == nullptr) return;
  const size_t bytes = elements * t.width;
  Range1D r = Items(p, x);
  for (uint64_t i = r.begin; i < r.end && i < size; ++i) {
    memcpy(t.base + (offset + i * elements) * t.width, pattern, bytes);
  }
}

// fillBufferAligned2D(..., uint patternSize, ulong offset, ulong width,
// ulong height, ulong pitch): work-item (x, y) inside width x height writes
// the pattern at element offset + y * pitch + x * patternSize.
void FillBufferAligned2D(const void* k, const hsa_kernel_dispatch_packet_t* p,
                         uint32_t wx, uint32_t wy, uint32_t) {
  FillTarget t = Target(k);
  const auto* pattern = Arg<const uint8_t*>(k, 32);
  const uint64_t elements = Arg<uint32_t>(k, 40);
  const uint64_t offset = Arg<uint64_t>(k, 48);
  const uint64_t width = Arg<uint64_t>(k, 56);
  const uint64_t height = Arg<uint64_t>(k, 64);
  const uint64_t pitch = Arg<uint64_t>(k, 72);
  if (t.base == nullptr || pattern == nullptr) return;
  const size_t bytes = elements * t.width;
  for (uint64_t ly = 0; ly < p->workgroup_size_y; ++ly) {
    uint64_t y = uint64_t{wy} * p->workgroup_size_y + ly;
    if (y >= height || y >= p->grid_size_y) break;
    for (uint64_t lx = 0; lx < p->workgroup_size_x; ++lx) {
      uint64_t x = uint64_t{wx} * p->workgroup_size_x + lx;
      if (x >= width || x >= p->grid_size_x) break;
      memcpy(t.base + (offset + y * pitch + x * elements) * t.width, pattern,
             bytes);
    }
  }
}

// copyBufferRect(src, dst, ulong4 srcRect, ulong4 dstRect, ulong4 size)
// and its aligned twin: a rect is (row pitch, slice pitch, start, 0) and
// size (x, y, z, unit) in units of `unit` bytes (1; 4 or 16 aligned);
// work-item (x, y, z) copies one unit.
void CopyBufferRect(const void* k, const hsa_kernel_dispatch_packet_t* p,
                    uint32_t wx, uint32_t wy, uint32_t wz) {
  const auto* src = Arg<const uint8_t*>(k, 0);
  auto* dst = Arg<uint8_t*>(k, 8);
  const uint64_t s_row = Arg<uint64_t>(k, 32), s_slice = Arg<uint64_t>(k, 40),
                 s_start = Arg<uint64_t>(k, 48);
  const uint64_t d_row = Arg<uint64_t>(k, 64), d_slice = Arg<uint64_t>(k, 72),
                 d_start = Arg<uint64_t>(k, 80);
  const uint64_t sx = Arg<uint64_t>(k, 96), sy = Arg<uint64_t>(k, 104),
                 sz = Arg<uint64_t>(k, 112), unit = Arg<uint64_t>(k, 120);
  for (uint64_t lz = 0; lz < p->workgroup_size_z; ++lz) {
    uint64_t z = uint64_t{wz} * p->workgroup_size_z + lz;
    if (z >= sz) break;
    for (uint64_t ly = 0; ly < p->workgroup_size_y; ++ly) {
      uint64_t y = uint64_t{wy} * p->workgroup_size_y + ly;
      if (y >= sy) break;
      for (uint64_t lx = 0; lx < p->workgroup_size_x; ++lx) {
        uint64_t x = uint64_t{wx} * p->workgroup_size_x + lx;
        if (x >= sx) break;
        memcpy(dst + (d_start + x + y * d_row + z * d_slice) * unit,
               src + (s_start + x + y * s_row + z * s_slice) * unit, unit);
      }
    }
  }
}

// Whether the explicit (not hidden) arguments are these, at these offsets.
using ArgLayout = std::vector<std::pair<const char*, uint64_t>>;

bool Layout(const std::vector<KernelArg>& args, const ArgLayout& want) {
  auto it = want.begin();
  for (const KernelArg& a : args) {
    if (a.value_kind.rfind("hidden_", 0) == 0) continue;
    if (it == want.end() || a.name != it->first || a.offset != it->second) {
      return false;
    }
    ++it;
  }
  return it == want.end();
}

// The blit kernels whose arguments changed under the same name, each layout
// (names and offsets, as the code object's metadata lists them) with its
// twin. A kernel's first layout is HIP 5's, the one it first had.
struct LayoutTwin {
  const char* kernel;
  ArgLayout layout;
  KernelFn fn;
};

const LayoutTwin kLayoutTwins[] = {
    {"__amd_rocclr_copyBuffer",
     {{"srcI", 0},
      {"dstI", 8},
      {"srcOrigin", 16},
      {"dstOrigin", 24},
      {"size", 32},
      {"remain", 40}},
     CopyBuffer},
    {"__amd_rocclr_copyBuffer",
     {{"src", 0},
      {"dst", 8},
      {"size", 16},
      {"remainder", 24},
      {"aligned_size", 28},
      {"end_ptr", 32},
      {"next_chunk", 40}},
     CopyBufferChunked<false>},
    {"__amd_rocclr_copyBuffer",
     {{"src", 0},
      {"dst", 8},
      {"size", 16},
      {"remainder", 24},
      {"aligned_size", 28},
      {"end_ptr", 32},
      {"next_chunk", 40},
      {"workgroup_size", 44}},
     CopyBufferChunked<true>},
    {"__amd_rocclr_fillBufferAligned",
     {{"bufUChar", 0},
      {"bufUShort", 8},
      {"bufUInt", 16},
      {"bufULong", 24},
      {"pattern", 32},
      {"patternSize", 40},
      {"offset", 48},
      {"size", 56}},
     FillBufferAligned},
    {"__amd_rocclr_fillBufferAligned",
     {{"buf", 0},
      {"pattern", 8},
      {"pattern_size", 16},
      {"alignment", 20},
      {"end_ptr", 24},
      {"next_chunk", 32}},
     FillBufferChunked<false>},
    {"__amd_rocclr_fillBufferAligned",
     {{"buf", 0},
      {"pattern", 8},
      {"pattern_size", 16},
      {"alignment", 20},
      {"end_ptr", 24},
      {"next_chunk", 32},
      {"workgroup_size", 36}},
     FillBufferChunked<true>},
};

}  // namespace

KernelFn BuiltinTwin(const std::string& kernel,
                     const std::vector<KernelArg>& args) {
  // Without metadata: HIP 5's layouts. An unknown layout of a known kernel
  // gets no twin rather than a misread of its arguments.
  const bool described = !args.empty();
  bool known = false;
  for (const LayoutTwin& twin : kLayoutTwins) {
    if (kernel != twin.kernel) continue;
    if (!known && !described) return twin.fn;
    known = true;
    if (Layout(args, twin.layout)) return twin.fn;
  }
  if (known) return nullptr;
  if (kernel == "__amd_rocclr_copyBufferAligned") return CopyBufferAligned;
  if (kernel == "__amd_rocclr_fillBufferAligned2D") return FillBufferAligned2D;
  if (kernel == "__amd_rocclr_copyBufferRect" ||
      kernel == "__amd_rocclr_copyBufferRectAligned") {
    return CopyBufferRect;
  }
  return nullptr;
}

}  // namespace softhsa
