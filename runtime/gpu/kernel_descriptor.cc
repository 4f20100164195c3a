#include "runtime/gpu/kernel_descriptor.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace roctracer::gpu {
namespace {

// Byte offsets in the descriptor.
constexpr size_t kRsrc3Offset = 44;
constexpr size_t kRsrc1Offset = 48;
constexpr size_t kCodePropertiesOffset = 56;

template <typename T>
T Field(const uint8_t (&d)[kKernelDescriptorSize], size_t offset) {
  T v;
  std::memcpy(&v, d + offset, sizeof(v));  // little-endian, as the host
  return v;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// gfx90a and the gfx94x/gfx95x family: one file of 512 VGPRs holds a
// kernel's architected VGPRs followed by its accumulation VGPRs.
bool HasUnifiedVgprFile(const GfxTarget& t) {
  return t.major == 9 &&
         ((t.minor == 0 && t.stepping == 0xa) || t.minor == 4 || t.minor == 5);
}

}  // namespace

bool ParseGfxTarget(const char* name, GfxTarget* target) {
  if (name == nullptr) return false;
  const char* p = std::strstr(name, "gfx");
  if (p == nullptr) return false;
  p += 3;
  // The processor's characters, up to a feature (":xnack-") or the end.
  size_t n = 0;
  while (p[n] != '\0' && p[n] != ':' && p[n] != '-') ++n;
  if (p[n] == '-') {
    // A generic target: gfx<major>[-<minor>]-generic.
    char* end = nullptr;
    const unsigned long major = std::strtoul(p, &end, 10);
    if (end != p + n || n == 0) return false;
    unsigned long minor = 0;
    const char* rest = p + n + 1;
    if (std::isdigit(static_cast<unsigned char>(*rest))) {
      minor = std::strtoul(rest, &end, 10);
      if (*end != '-') return false;
      rest = end + 1;
    }
    if (std::strncmp(rest, "generic", 7) != 0) return false;
    *target = GfxTarget{static_cast<uint32_t>(major),
                        static_cast<uint32_t>(minor), 0};
    return true;
  }
  // gfx<major><minor><stepping>: the major is every digit but the last two
  // characters, which are one hexadecimal digit each.
  if (n < 3 || n > 4) return false;
  uint32_t major = 0;
  for (size_t i = 0; i + 2 < n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(p[i]))) return false;
    major = major * 10 + static_cast<uint32_t>(p[i] - '0');
  }
  const int minor = HexDigit(p[n - 2]);
  const int stepping = HexDigit(p[n - 1]);
  if (minor < 0 || stepping < 0) return false;
  *target = GfxTarget{major, static_cast<uint32_t>(minor),
                      static_cast<uint32_t>(stepping)};
  return true;
}

KernelRegisters DecodeKernelRegisters(
    const GfxTarget& target,
    const uint8_t (&descriptor)[kKernelDescriptorSize]) {
  KernelRegisters r{};
  if (target.major < 6) return r;
  const uint32_t rsrc1 = Field<uint32_t>(descriptor, kRsrc1Offset);
  const uint32_t rsrc3 = Field<uint32_t>(descriptor, kRsrc3Offset);
  const uint16_t properties =
      Field<uint16_t>(descriptor, kCodePropertiesOffset);
  const uint32_t vgpr_blocks = (rsrc1 & 0x3f) + 1;        // bits 5:0
  const uint32_t sgpr_blocks = ((rsrc1 >> 6) & 0xf) + 1;  // bits 9:6
  const bool wave32 = target.major >= 10 && (properties & (1u << 10)) != 0;

  if (HasUnifiedVgprFile(target)) {
    // Blocks of 8 cover both kinds; ACCUM_OFFSET (rsrc3 bits 5:0, blocks of
    // 4) is where the accumulation VGPRs start.
    const uint32_t total = vgpr_blocks * 8;
    const uint32_t arch = ((rsrc3 & 0x3f) + 1) * 4;
    if (arch > total) return r;
    r.arch_vgpr_count = arch;
    r.accum_vgpr_count = total - arch;
  } else if (target.major >= 10) {
    r.arch_vgpr_count = vgpr_blocks * (wave32 ? 8 : 4);
  } else {
    r.arch_vgpr_count = vgpr_blocks * 4;
    // gfx908 has a separate accumulation file, allocated as many registers
    // as the VGPRs (the field encodes the larger of the two counts).
    if (target.major == 9 && target.minor == 0 && target.stepping == 8) {
      r.accum_vgpr_count = r.arch_vgpr_count;
    }
  }

  if (target.major >= 10) {
    r.sgpr_count = 128;  // always allocated; the field must be 0
  } else if (target.major == 9) {
    r.sgpr_count =
        ((sgpr_blocks - 1) / 2 + 1) * 16;  // encoded as 2 * blocks of 16
  } else {
    r.sgpr_count = sgpr_blocks * 8;
  }
  r.known = true;
  return r;
}

}  // namespace roctracer::gpu
