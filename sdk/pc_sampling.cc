// PC sampling (pc_sampling.h). Nothing is sampled here: configuring and
// querying answer NOT_IMPLEMENTED, which is also what rocprofiler-sdk 1.0.0
// answers unless PC sampling was explicitly enabled, so a tool written for
// it already handles this status. The name functions work.
#include "rocprofiler-sdk/pc_sampling.h"

#include <cstdint>

#include "sdk/kinds.h"

namespace {

// Indexed by the enum's value; the names are the enumerators'.
constexpr const char* kInstructionTypes[] = {
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MATRIX",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_SCALAR",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS_DIRECT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_FLAT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_EXPORT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MESSAGE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_TAKEN",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_JUMP",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_OTHER",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU",
};
static_assert(sizeof(kInstructionTypes) / sizeof(kInstructionTypes[0]) ==
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST,
              "one name per instruction type");

constexpr const char* kNotIssuedReasons[] = {
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_"
    "AVAILABLE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_INTERNAL_"
    "INSTRUCTION",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_"
    "STALL",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT",
};
static_assert(sizeof(kNotIssuedReasons) / sizeof(kNotIssuedReasons[0]) ==
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST,
              "one name per reason");

template <size_t N>
const char* NameAt(const char* const (&names)[N], int32_t value) noexcept {
  return value >= 0 && static_cast<size_t>(value) < N ? names[value] : nullptr;
}

}  // namespace

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_pc_sampling_service(
    rocprofiler_context_id_t, rocprofiler_agent_id_t,
    rocprofiler_pc_sampling_method_t, rocprofiler_pc_sampling_unit_t, uint64_t,
    rocprofiler_buffer_id_t, int) {
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_pc_sampling_agent_configurations(
    rocprofiler_agent_id_t,
    rocprofiler_available_pc_sampling_configurations_cb_t cb, void*) {
  if (cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

ROCPROFILER_API const char* rocprofiler_get_pc_sampling_instruction_type_name(
    rocprofiler_pc_sampling_instruction_type_t instruction_type) {
  return NameAt(kInstructionTypes, rocprofiler_sdk::RawValue(instruction_type));
}

ROCPROFILER_API const char*
rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
    rocprofiler_pc_sampling_instruction_not_issued_reason_t not_issued_reason) {
  return NameAt(kNotIssuedReasons,
                rocprofiler_sdk::RawValue(not_issued_reason));
}

}  // extern "C"
