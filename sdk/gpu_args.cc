// Argument iteration for the GPU kinds and MEMORY_ALLOCATION: their records
// have no function arguments, so each field of the payload is one "argument",
// named and typed as the field is in <rocprofiler-sdk/callback_tracing.h>, its
// address in the payload. Agent, queue and address handles are numbers; the
// only pointers followed are the URI and kernel name strings (one level, when
// max_dereference_count allows and they are not NULL).
#include <cinttypes>
#include <cstdio>

#include "sdk/gpu_kinds.h"

namespace rocprofiler_sdk {
namespace {

class Fields {
 public:
  Fields(const rocprofiler_callback_tracing_record_t& record,
         rocprofiler_callback_tracing_operation_args_cb_t callback,
         int32_t max_deref, void* user)
      : record_(record),
        callback_(callback),
        max_deref_(max_deref),
        user_(user) {}

  Fields& U64(const char* type, const char* name, const uint64_t& v) {
    char text[24];
    std::snprintf(text, sizeof(text), "%" PRIu64, v);
    return Emit(&v, 0, type, name, text, 0);
  }
  Fields& I64(const char* type, const char* name, const int64_t& v) {
    char text[24];
    std::snprintf(text, sizeof(text), "%" PRId64, v);
    return Emit(&v, 0, type, name, text, 0);
  }
  Fields& U32(const char* name, const uint32_t& v) {
    char text[12];
    std::snprintf(text, sizeof(text), "%" PRIu32, v);
    return Emit(&v, 0, "uint32_t", name, text, 0);
  }
  Fields& Int(const char* name, const int& v) {
    char text[12];
    std::snprintf(text, sizeof(text), "%d", v);
    return Emit(&v, 0, "int", name, text, 0);
  }
  // An enum (or an integer standing for one): its value as a number.
  template <class E>
  Fields& Enum(const char* type, const char* name, const E& v) {
    char text[12];
    std::snprintf(text, sizeof(text), "%d", static_cast<int>(v));
    return Emit(&v, 0, type, name, text, 0);
  }
  Fields& Dim3(const char* name, const rocprofiler_dim3_t& v) {
    char text[48];
    std::snprintf(text, sizeof(text), "{%" PRIu32 ", %" PRIu32 ", %" PRIu32 "}",
                  v.x, v.y, v.z);
    return Emit(&v, 0, "rocprofiler_dim3_t", name, text, 0);
  }
  Fields& Str(const char* name, const char* const& v) {
    char text[24];
    if (v != nullptr && max_deref_ > 0)
      return Emit(&v, 1, "const char*", name, v, 1);
    std::snprintf(text, sizeof(text), "%p", static_cast<const void*>(v));
    return Emit(&v, 1, "const char*", name, text, 0);
  }

 private:
  Fields& Emit(const void* addr, int32_t indirection, const char* type,
               const char* name, const char* text, int32_t derefs) {
    if (stopped_) return *this;
    stopped_ = callback_(record_.kind, record_.operation, index_++, addr,
                         indirection, type, name, text, derefs, user_) != 0;
    return *this;
  }

  const rocprofiler_callback_tracing_record_t& record_;
  rocprofiler_callback_tracing_operation_args_cb_t callback_;
  int32_t max_deref_;
  void* user_;
  uint32_t index_ = 0;
  bool stopped_ = false;
};

void Dispatch(Fields& f,
              const rocprofiler_callback_tracing_kernel_dispatch_data_t& p) {
  const rocprofiler_kernel_dispatch_info_t& d = p.dispatch_info;
  f.U64("rocprofiler_timestamp_t", "start_timestamp", p.start_timestamp)
      .U64("rocprofiler_timestamp_t", "end_timestamp", p.end_timestamp)
      .U64("rocprofiler_agent_id_t", "agent_id", d.agent_id.handle)
      .U64("rocprofiler_queue_id_t", "queue_id", d.queue_id.handle)
      .U64("rocprofiler_kernel_id_t", "kernel_id", d.kernel_id)
      .U64("rocprofiler_dispatch_id_t", "dispatch_id", d.dispatch_id)
      .U32("private_segment_size", d.private_segment_size)
      .U32("group_segment_size", d.group_segment_size)
      .Dim3("workgroup_size", d.workgroup_size)
      .Dim3("grid_size", d.grid_size);
}

void Copy(Fields& f, const rocprofiler_callback_tracing_memory_copy_data_t& p) {
  f.U64("rocprofiler_timestamp_t", "start_timestamp", p.start_timestamp)
      .U64("rocprofiler_timestamp_t", "end_timestamp", p.end_timestamp)
      .U64("rocprofiler_agent_id_t", "dst_agent_id", p.dst_agent_id.handle)
      .U64("rocprofiler_agent_id_t", "src_agent_id", p.src_agent_id.handle)
      .U64("uint64_t", "bytes", p.bytes)
      .U64("rocprofiler_address_t", "dst_address", p.dst_address.value)
      .U64("rocprofiler_address_t", "src_address", p.src_address.value);
}

void Allocation(
    Fields& f, const rocprofiler_callback_tracing_memory_allocation_data_t& p) {
  f.U64("rocprofiler_timestamp_t", "start_timestamp", p.start_timestamp)
      .U64("rocprofiler_timestamp_t", "end_timestamp", p.end_timestamp)
      .U64("rocprofiler_agent_id_t", "agent_id", p.agent_id.handle)
      .U64("rocprofiler_address_t", "address", p.address.value)
      .U64("uint64_t", "allocation_size", p.allocation_size);
}

void Load(Fields& f,
          const rocprofiler_callback_tracing_code_object_load_data_t& p) {
  f.U64("uint64_t", "code_object_id", p.code_object_id)
      .U64("rocprofiler_agent_id_t", "agent_id", p.agent_id.handle)
      .Str("uri", p.uri)
      .U64("uint64_t", "load_base", p.load_base)
      .U64("uint64_t", "load_size", p.load_size)
      .I64("int64_t", "load_delta", p.load_delta);
  const uint32_t storage = static_cast<uint32_t>(p.storage_type);
  f.U32("storage_type", storage);
  if (storage == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE) {
    f.Int("storage_file", p.storage_file);
  } else if (storage == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
    f.U64("uint64_t", "memory_base", p.memory_base)
        .U64("uint64_t", "memory_size", p.memory_size);
  }
}

void Symbol(
    Fields& f,
    const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t&
        p) {
  f.U64("uint64_t", "kernel_id", p.kernel_id)
      .U64("uint64_t", "code_object_id", p.code_object_id)
      .Str("kernel_name", p.kernel_name)
      .U64("uint64_t", "kernel_object", p.kernel_object)
      .U32("kernarg_segment_size", p.kernarg_segment_size)
      .U32("kernarg_segment_alignment", p.kernarg_segment_alignment)
      .U32("group_segment_size", p.group_segment_size)
      .U32("private_segment_size", p.private_segment_size)
      .U32("sgpr_count", p.sgpr_count)
      .U32("arch_vgpr_count", p.arch_vgpr_count)
      .U32("accum_vgpr_count", p.accum_vgpr_count)
      .I64("int64_t", "kernel_code_entry_byte_offset",
           p.kernel_code_entry_byte_offset)
      .U64("rocprofiler_address_t", "kernel_address", p.kernel_address.value);
}

// The args member `args_kind` names (the allocation's; the other events
// carry none).
void Scratch(Fields& f,
             const rocprofiler_callback_tracing_scratch_memory_data_t& p) {
  f.U64("rocprofiler_agent_id_t", "agent_id", p.agent_id.handle)
      .U64("rocprofiler_queue_id_t", "queue_id", p.queue_id.handle)
      .Enum("rocprofiler_scratch_alloc_flag_t", "flags", p.flags)
      .Enum("hsa_amd_tool_event_kind_t", "args_kind", p.args_kind);
  const int event = static_cast<int>(p.args_kind);
  if (event == 1) {  // ALLOC_START
    f.U64("uint64_t", "dispatch_id", p.args.alloc_start.dispatch_id);
  } else if (event == 2) {  // ALLOC_END
    f.U64("uint64_t", "dispatch_id", p.args.alloc_end.dispatch_id)
        .U64("size_t", "size", p.args.alloc_end.size)
        .U64("size_t", "num_slots", p.args.alloc_end.num_slots);
  }
}

}  // namespace

void IterateGpuPayload(
    const rocprofiler_callback_tracing_record_t& record,
    rocprofiler_callback_tracing_operation_args_cb_t callback,
    int32_t max_dereference_count, void* user_data) noexcept {
  Fields f(record, callback, max_dereference_count, user_data);
  switch (record.kind) {
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH:
      Dispatch(f,
               *static_cast<
                   const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(
                   record.payload));
      break;
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY:
      Copy(f,
           *static_cast<const rocprofiler_callback_tracing_memory_copy_data_t*>(
               record.payload));
      break;
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION:
      Allocation(
          f, *static_cast<
                 const rocprofiler_callback_tracing_memory_allocation_data_t*>(
                 record.payload));
      break;
    case ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY:
      Scratch(f, *static_cast<
                     const rocprofiler_callback_tracing_scratch_memory_data_t*>(
                     record.payload));
      break;
    case ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT:
      if (record.operation == ROCPROFILER_CODE_OBJECT_LOAD) {
        Load(f,
             *static_cast<
                 const rocprofiler_callback_tracing_code_object_load_data_t*>(
                 record.payload));
      } else if (record.operation ==
                 ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER) {
        Symbol(
            f,
            *static_cast<
                const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
                record.payload));
      }
      break;
    default:
      break;
  }
}

}  // namespace rocprofiler_sdk
