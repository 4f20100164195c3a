#include "softhsa/kernel_descriptor.h"

#include <cstring>

namespace softhsa {
namespace {

// max(0, ceil(count / granule) - 1): the blocks-minus-one encoding.
uint32_t Blocks(uint32_t count, uint32_t granule) {
  return count == 0 ? 0 : (count + granule - 1) / granule - 1;
}

void Put32(uint8_t* out, size_t offset, uint32_t v) {
  std::memcpy(out + offset, &v, sizeof(v));
}

}  // namespace

void EncodeKernelDescriptor(const std::string& target,
                            const KernelDeclaration& d, uint8_t* out) {
  std::memset(out, 0, kKernelDescriptorSize);
  Put32(out, 0, d.group_size);    // group_segment_fixed_size
  Put32(out, 4, d.private_size);  // private_segment_fixed_size
  Put32(out, 8, d.kernarg_size);  // kernarg_size
  // gfx<major><minor hex digit><stepping hex digit>.
  const std::string digits =
      target.compare(0, 3, "gfx") == 0 ? target.substr(3) : "";
  if (digits.size() < 3) return;
  unsigned major = 0;
  for (size_t i = 0; i + 2 < digits.size(); ++i) {
    if (digits[i] < '0' || digits[i] > '9') return;  // not a processor
    major = major * 10 + static_cast<unsigned>(digits[i] - '0');
  }
  const char minor = digits[digits.size() - 2];
  const bool unified =
      major == 9 && (digits == "90a" || minor == '4' || minor == '5');
  // Undeclared (0): the compilers' default, wave32 from GFX10 on.
  const bool wave32 = major >= 10 && d.wavefront_size != 64;

  uint32_t vgpr_blocks = 0, rsrc3 = 0;
  if (unified) {
    // Architected VGPRs first, rounded to 4, then the accumulation ones.
    const uint32_t arch = d.vgprs == 0 ? 4 : (d.vgprs + 3) / 4 * 4;
    vgpr_blocks = Blocks(arch + d.accum_vgprs, 8);
    rsrc3 = arch / 4 - 1;  // ACCUM_OFFSET
  } else if (digits == "908") {
    vgpr_blocks = Blocks(d.vgprs > d.accum_vgprs ? d.vgprs : d.accum_vgprs, 4);
  } else {
    vgpr_blocks = Blocks(d.vgprs, wave32 ? 8 : 4);
  }
  uint32_t sgpr_blocks = 0;  // GFX10+: reserved, 0
  if (major == 9) {
    sgpr_blocks = 2 * Blocks(d.sgprs, 16);
  } else if (major < 9) {
    sgpr_blocks = Blocks(d.sgprs, 8);
  }
  Put32(out, 44, rsrc3);  // compute_pgm_rsrc3
  Put32(out, 48, (vgpr_blocks & 0x3f) | (sgpr_blocks & 0xf) << 6);  // rsrc1
  const uint16_t properties = wave32 ? 1u << 10 : 0;  // ENABLE_WAVEFRONT_SIZE32
  std::memcpy(out + 56, &properties, sizeof(properties));
}

}  // namespace softhsa
