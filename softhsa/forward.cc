// The exported hsa_* symbols. As in ROCR, each one calls whatever its slot of
// the runtime's HsaApiTable holds at the time of the call, so a tool that
// replaced slots in OnLoad sees every call the application makes.
//
// Each symbol is a single indirect jump through its slot: the arguments are
// left untouched in their registers, so one forwarder serves every signature
// and none has to be written out by hand.
#include <cstddef>

#include "softhsa/runtime.h"

extern "C" {
// The four tables, named for the assembler; defined in table.cc.
extern CoreApiTable softhsa_core_table;
extern AmdExtTable softhsa_amd_ext_table;
extern ImageExtTable softhsa_image_ext_table;
extern FinalizerExtTable softhsa_finalizer_ext_table;
}

namespace {

using core_t = CoreApiTable;
using amd_ext_t = AmdExtTable;
using image_ext_t = ImageExtTable;
using finalizer_ext_t = FinalizerExtTable;

#define SOFTHSA_JUMP(table, name, slot)    \
  asm volatile(".pushsection .text." #name \
               ",\"ax\",@progbits\n"       \
               ".globl " #name             \
               "\n"                        \
               ".type " #name              \
               ",@function\n"              \
               ".p2align 4\n" #name        \
               ":\n"                       \
               "\tjmp *softhsa_" #table    \
               "_table+%c0(%%rip)\n"       \
               ".size " #name ", .-" #name \
               "\n"                        \
               ".popsection\n" ::"i"(offsetof(table##_t, slot##_fn)));

#define SOFTHSA_SLOT(table, name) SOFTHSA_JUMP(table, name, name)
#define SOFTHSA_HIDDEN_SLOT(table, name)
#define SOFTHSA_ALIAS(table, name, slot) SOFTHSA_JUMP(table, name, slot)

// Never called: it only carries the forwarders' assembly into the object.
__attribute__((used)) void EmitForwarders() {
#include "softhsa/api_slots.inc"
}

}  // namespace
