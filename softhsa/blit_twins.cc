// Host twins of the blit kernels of HIP's runtime (ROCclr's
// "__amd_rocclr_*" OpenCL kernels, built at run time for the agent), so
// that the copies and fills HIP runs as kernels move the bytes. Each reads
// its arguments where the OpenCL kernel ABI puts them (each argument at the
// next multiple of its size) and does, for the work-items of one workgroup,
// what the kernel's work-items do.
#include <algorithm>
#include <cstring>
#include <string>

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

}  // namespace

KernelFn BuiltinTwin(const std::string& kernel) {
  if (kernel == "__amd_rocclr_copyBuffer") return CopyBuffer;
  if (kernel == "__amd_rocclr_copyBufferAligned") return CopyBufferAligned;
  if (kernel == "__amd_rocclr_fillBufferAligned") return FillBufferAligned;
  if (kernel == "__amd_rocclr_fillBufferAligned2D") return FillBufferAligned2D;
  if (kernel == "__amd_rocclr_copyBufferRect" ||
      kernel == "__amd_rocclr_copyBufferRectAligned") {
    return CopyBufferRect;
  }
  return nullptr;
}

}  // namespace softhsa
