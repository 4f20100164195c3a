// softhsa's reader of AMDHSA metadata (the NT_AMDGPU_METADATA note): the
// kernels' arguments of a hipcc-built code object equal what the compiler
// wrote (llvm-readelf --notes shows the same), argument names (which OpenCL
// kernels such as HIP's blit kernels carry) are read, and damaged notes give
// nothing rather than a crash.
#include "softhsa/amdgpu_metadata.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::vector<uint8_t> ReadFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A MessagePack writer for the few forms the test needs.
struct Pack {
  std::vector<uint8_t> bytes;
  Pack& Map(uint8_t n) {
    bytes.push_back(0x80 | n);
    return *this;
  }
  Pack& Array(uint8_t n) {
    bytes.push_back(0x90 | n);
    return *this;
  }
  Pack& Str(const std::string& s) {
    if (s.size() < 32) {
      bytes.push_back(0xa0 | s.size());
    } else {
      bytes.push_back(0xd9);  // str 8
      bytes.push_back(s.size());
    }
    bytes.insert(bytes.end(), s.begin(), s.end());
    return *this;
  }
  Pack& Uint(uint16_t v) {
    if (v < 128) {
      bytes.push_back(v);
    } else {
      bytes.push_back(0xcd);  // uint 16, big-endian
      bytes.push_back(v >> 8);
      bytes.push_back(v & 0xff);
    }
    return *this;
  }
};

// An ELF holding only a section header table with one SHT_NOTE section:
// an "AMDGPU" note of type NT_AMDGPU_METADATA (32) with `desc`.
std::vector<uint8_t> ElfWithNote(const std::vector<uint8_t>& desc) {
  const Elf64_Nhdr nh{7, static_cast<Elf64_Word>(desc.size()), 32};
  const char name[8] = "AMDGPU";
  const size_t note_offset = sizeof(Elf64_Ehdr);
  const size_t note_size =
      sizeof(nh) + sizeof(name) + (desc.size() + 3) / 4 * 4;
  const size_t shoff = (note_offset + note_size + 7) / 8 * 8;
  std::vector<uint8_t> elf(shoff + 2 * sizeof(Elf64_Shdr), 0);
  Elf64_Ehdr eh{};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_shoff = shoff;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = 2;
  memcpy(elf.data(), &eh, sizeof(eh));
  uint8_t* note = elf.data() + note_offset;
  memcpy(note, &nh, sizeof(nh));
  memcpy(note + sizeof(nh), name, sizeof(name));
  if (!desc.empty()) {
    memcpy(note + sizeof(nh) + sizeof(name), desc.data(), desc.size());
  }
  Elf64_Shdr sh{};
  sh.sh_type = SHT_NOTE;
  sh.sh_offset = note_offset;
  sh.sh_size = note_size;
  memcpy(elf.data() + shoff + sizeof(Elf64_Shdr), &sh, sizeof(sh));
  return elf;
}

TEST(AmdgpuMetadata, ArgumentsOfAHipccBuiltCodeObject) {
  // tests/realhip/kernels.hip for gfx90a: scale(float*, float, int),
  // untwinned(int*), reverse_blocks(int*), pick(int*, int).
  std::vector<uint8_t> co = ReadFile("tests/realhip/kernels_gfx90a.co");
  ASSERT_FALSE(co.empty());
  softhsa::KernelArgs args = softhsa::ReadKernelArgs(co.data(), co.size());
  ASSERT_EQ(args.count("scale"), 1u);
  const auto& scale = args["scale"];
  ASSERT_EQ(scale.size(), 3u);
  EXPECT_EQ(scale[0].value_kind, "global_buffer");
  EXPECT_EQ(scale[0].offset, 0u);
  EXPECT_EQ(scale[0].size, 8u);
  EXPECT_EQ(scale[1].value_kind, "by_value");
  EXPECT_EQ(scale[1].offset, 8u);
  EXPECT_EQ(scale[1].size, 4u);
  EXPECT_EQ(scale[2].offset, 12u);
  // HIP kernels carry no argument names.
  EXPECT_EQ(scale[0].name, "");
  EXPECT_EQ(args["_Z9untwinnedPi"].size(), 1u);
  EXPECT_EQ(args["reverse_blocks"].size(), 1u);
  ASSERT_EQ(args["pick"].size(), 2u);
  EXPECT_EQ(args["pick"][1].offset, 8u);
  EXPECT_EQ(args.size(), 4u);
}

std::vector<uint8_t> TwoArgumentKernel() {
  Pack p;
  p.Map(2).Str("amdhsa.version").Array(2).Uint(1).Uint(2);
  p.Str("amdhsa.kernels").Array(1).Map(3);
  p.Str(".name").Str("k");
  p.Str(".symbol").Str("k.kd");
  p.Str(".args").Array(2);
  p.Map(4).Str(".name").Str("src").Str(".offset").Uint(0);
  p.Str(".size").Uint(8).Str(".value_kind").Str("global_buffer");
  p.Map(4).Str(".name").Str("a_rather_long_argument_name_str8").Str(".offset");
  p.Uint(300).Str(".size").Uint(4).Str(".value_kind").Str("by_value");
  return p.bytes;
}

TEST(AmdgpuMetadata, NamesOffsetsAndWiderEncodings) {
  std::vector<uint8_t> elf = ElfWithNote(TwoArgumentKernel());
  softhsa::KernelArgs args = softhsa::ReadKernelArgs(elf.data(), elf.size());
  ASSERT_EQ(args.size(), 1u);
  const auto& k = args["k"];
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].name, "src");
  EXPECT_EQ(k[1].name, "a_rather_long_argument_name_str8");
  EXPECT_EQ(k[1].offset, 300u);
  EXPECT_EQ(k[1].size, 4u);
}

TEST(AmdgpuMetadata, DamagedNotesGiveNothing) {
  std::vector<uint8_t> desc = TwoArgumentKernel();
  // Every truncation of the MessagePack map, and of the ELF itself.
  for (size_t n = 0; n < desc.size(); ++n) {
    std::vector<uint8_t> cut(desc.begin(), desc.begin() + n);
    std::vector<uint8_t> elf = ElfWithNote(cut);
    EXPECT_TRUE(softhsa::ReadKernelArgs(elf.data(), elf.size()).empty()) << n;
  }
  std::vector<uint8_t> elf = ElfWithNote(desc);
  for (size_t n = 0; n < elf.size(); n += 7) {
    // A copy of n bytes: reading past them is a sanitizer's error.
    std::vector<uint8_t> part(elf.begin(), elf.begin() + n);
    softhsa::ReadKernelArgs(part.data(), part.size());
  }
  EXPECT_TRUE(softhsa::ReadKernelArgs(nullptr, 0).empty());
  // A map claiming more entries than bytes remain.
  std::vector<uint8_t> huge = {0xdf, 0xff, 0xff, 0xff, 0xff};
  elf = ElfWithNote(huge);
  EXPECT_TRUE(softhsa::ReadKernelArgs(elf.data(), elf.size()).empty());
}

}  // namespace
