// The exported hsa_* symbols. As in ROCR, each one calls whatever its slot of
// the runtime's HsaApiTable holds at the time of the call, so a tool that
// replaced slots in OnLoad sees every call the application makes.
//
// Each symbol is a single indirect jump through its slot: the arguments are
// left untouched in their registers, so one forwarder serves every signature
// and none has to be written out by hand.
#include <cstddef>
#include <type_traits>

#include "softhsa/runtime.h"

extern "C" {
// The four tables, named for the assembler; defined in table.cc.
extern CoreApiTable softhsa_core_table;
extern AmdExtTable softhsa_amd_ext_table;
extern ImageExtTable softhsa_image_ext_table;
extern FinalizerExtTable softhsa_finalizer_ext_table;
#ifdef HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION
extern PcSamplingExtTable softhsa_pc_sampling_ext_table;
#endif
}

namespace {

using core_t = CoreApiTable;
using amd_ext_t = AmdExtTable;
using image_ext_t = ImageExtTable;
using finalizer_ext_t = FinalizerExtTable;
#ifdef HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION
using pc_sampling_ext_t = PcSamplingExtTable;
#else
struct pc_sampling_ext_t {};  // headers without the table: no slot found
#endif

// A forwarder `name`: an exported function in a section of its own that
// jumps through the table's slot at operand 0's offset.
#define SOFTHSA_FORWARDER_ASM(table, name) \
  ".pushsection .text." #name              \
  ",\"ax\",@progbits\n"                    \
  ".globl " #name                          \
  "\n"                                     \
  ".type " #name                           \
  ",@function\n"                           \
  ".p2align 4\n" #name                     \
  ":\n"                                    \
  "\tjmp *softhsa_" #table                 \
  "_table+%c0(%%rip)\n"                    \
  ".size " #name ", .-" #name              \
  "\n"                                     \
  ".popsection\n"

#define SOFTHSA_JUMP(table, name, slot) \
  asm volatile(SOFTHSA_FORWARDER_ASM(   \
      table, name)::"i"(offsetof(table##_t, slot##_fn)));

#define SOFTHSA_SLOT(table, name) SOFTHSA_JUMP(table, name, name)
#define SOFTHSA_HIDDEN_SLOT(table, name)
#define SOFTHSA_ALIAS(table, name, slot) SOFTHSA_JUMP(table, name, slot)

// A newer release's slot, which the headers built against may lack: a
// trait per name finds it (present, and its offset) without naming it
// outside a template.
#define SOFTHSA_NEWER_SLOT(table, name)                            \
  template <typename T, typename = void>                           \
  struct Slot_##name {                                             \
    static constexpr int kPresent = 0;                             \
    static constexpr std::size_t kOffset = 0;                      \
  };                                                               \
  template <typename T>                                            \
  struct Slot_##name<T, std::void_t<decltype(&T::name##_fn)>> {    \
    static constexpr int kPresent = 1;                             \
    static constexpr std::size_t kOffset = offsetof(T, name##_fn); \
  };
#include "softhsa/api_slots_newer.inc"
#undef SOFTHSA_NEWER_SLOT

// The forwarder of a newer slot, assembled only where the slot exists (the
// assembler's .if drops it, and its reference to a table that may not
// exist, otherwise).
#define SOFTHSA_NEWER_SLOT(table, name)                                   \
  asm volatile(                                                           \
      ".if %c1\n" SOFTHSA_FORWARDER_ASM(                                  \
          table, name) ".endif\n" ::"i"(Slot_##name<table##_t>::kOffset), \
      "i"(Slot_##name<table##_t>::kPresent));

// Never called: it only carries the forwarders' assembly into the object.
__attribute__((used)) void EmitForwarders() {
#include "softhsa/api_slots.inc"
#include "softhsa/api_slots_newer.inc"
}

}  // namespace
