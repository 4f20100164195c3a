// Preloaded behind libroctracer64.so.4 into a hipcc-built program: a
// rocprofiler-sdk tool (rocprofiler_force_configure from its constructor,
// which the tracer's constructor runs when it looks for tools) with callback
// tracing of KERNEL_DISPATCH, MEMORY_COPY and CODE_OBJECT. At exit, once every
// dispatch and copy it saw begin has completed, it writes to
// $SDK_RECORDER_OUT, one line each:
//   dispatch NAME COUNT        completed dispatches by kernel name
//   copy OPERATION COUNT       completed copies by operation name
//   symbol NAME KERNARG GROUP PRIVATE   each kernel symbol registered
//   begun D C done D C         dispatches and copies begun and completed
//   initialized N              how often the SDK called its initialize
//   memory ALLOCATE|FREE N M U  MEMORY_ALLOCATION EXIT callbacks, the HSA
//                              allocation (free) calls traced, and the
//                              memory callbacks whose ID was not that call's
//   freed_unknown N            frees of an address no traced allocation
//                              returned
//   stream_create ID VALUE     each HIP_STREAM CREATE (DESTROY: stream_destroy)
//   stream_set NAME ID N       HIP_STREAM SETs of stream ID by the HIP call
//                              that followed each SET's ENTER
//   stream_set_phases E X U    SET ENTERs, EXITs, ENTERs no HIP call followed
//   runtime_init OP VERSION N  RUNTIME_INITIALIZATION callbacks
//   hip_headers MAJOR MINOR PATCH  the HIP headers this tool (and the tracer
//                              beside it) was built against
//   hsa_tools_lib VALUE        HSA_TOOLS_LIB at exit ("-": unset)
#include <hip/hip_version.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tests/sdk/tool_configure.h"

namespace {

struct Seen {
  std::mutex mutex;
  std::map<uint64_t, std::string> kernel_names;  // kernel_id -> name
  std::map<std::string, std::string> symbols;    // name -> sizes
  std::map<uint64_t, int> dispatches;            // kernel_id -> completed
  std::map<int32_t, int> copies;                 // operation -> completed
  int dispatches_begun = 0, dispatches_done = 0;
  int copies_begun = 0, copies_done = 0;
  int initialized = 0;  // Initialize calls: one expected
  // MEMORY_ALLOCATION against the HSA calls it comes from (traced by the
  // same tool): EXIT callbacks and calls per operation, and memory
  // callbacks whose correlation ID differs from the enclosing call's.
  std::map<int32_t, int> memory, memory_calls, memory_unmatched;
  uint64_t hsa_call = 0;         // the allocation call in progress (one thread)
  std::map<uint64_t, int> live;  // addresses allocated, not freed
  int freed_unknown = 0;
  // HIP_STREAM and the HIP calls its SETs enclose.
  std::vector<std::pair<uint64_t, uint64_t>> creates, destroys;
  std::map<std::pair<std::string, uint64_t>, int> sets;
  int set_enters = 0, set_exits = 0, set_unfollowed = 0;
  std::map<std::pair<int32_t, uint64_t>, int> runtime_inits;
};
Seen& S() {
  static Seen* s = new Seen;
  return *s;
}

// The stream of the SET whose ENTER came last on this thread, until the HIP
// call it encloses begins; -1: none.
thread_local int64_t t_pending_set = -1;

void Callback(rocprofiler_callback_tracing_record_t record,
              rocprofiler_user_data_t*, void*) {
  Seen& s = S();
  std::lock_guard<std::mutex> lock(s.mutex);
  switch (record.kind) {
    case ROCPROFILER_CALLBACK_TRACING_HIP_STREAM: {
      const auto* d =
          static_cast<rocprofiler_callback_tracing_hip_stream_data_t*>(
              record.payload);
      const auto entry =
          std::make_pair(d->stream_id.handle, d->stream_value.value);
      if (record.operation == ROCPROFILER_HIP_STREAM_CREATE) {
        s.creates.push_back(entry);
      } else if (record.operation == ROCPROFILER_HIP_STREAM_DESTROY) {
        s.destroys.push_back(entry);
      } else if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
        ++s.set_enters;
        if (t_pending_set >= 0) ++s.set_unfollowed;
        t_pending_set = static_cast<int64_t>(d->stream_id.handle);
      } else {
        ++s.set_exits;
      }
      break;
    }
    case ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API:
      if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER &&
          t_pending_set >= 0) {
        const char* name = nullptr;
        rocprofiler_query_callback_tracing_kind_operation_name(
            record.kind, record.operation, &name, nullptr);
        ++s.sets[{name ? name : "?", static_cast<uint64_t>(t_pending_set)}];
        t_pending_set = -1;
      }
      break;
    case ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION: {
      const auto* d = static_cast<
          rocprofiler_callback_tracing_runtime_initialization_data_t*>(
          record.payload);
      ++s.runtime_inits[{record.operation, d->version}];
      break;
    }
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH: {
      const auto* d =
          static_cast<rocprofiler_callback_tracing_kernel_dispatch_data_t*>(
              record.payload);
      if (record.operation == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE &&
          record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
        ++s.dispatches_begun;
      } else if (record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE) {
        ++s.dispatches_done;
        ++s.dispatches[d->dispatch_info.kernel_id];
      }
      break;
    }
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY:
      if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
        ++s.copies_begun;
      } else {
        ++s.copies_done;
        ++s.copies[record.operation];
      }
      break;
    case ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT:
      if (record.operation ==
              ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER &&
          record.phase == ROCPROFILER_CALLBACK_PHASE_LOAD) {
        const auto* k = static_cast<
            rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
            record.payload);
        s.kernel_names[k->kernel_id] = k->kernel_name;
        s.symbols[k->kernel_name] =
            std::to_string(k->kernarg_segment_size) + " " +
            std::to_string(k->group_segment_size) + " " +
            std::to_string(k->private_segment_size);
      }
      break;
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION: {
      const auto* m =
          static_cast<rocprofiler_callback_tracing_memory_allocation_data_t*>(
              record.payload);
      if (record.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) break;
      ++s.memory[record.operation];
      if (record.correlation_id.internal != s.hsa_call) {
        ++s.memory_unmatched[record.operation];
      }
      if (record.operation == ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE) {
        ++s.live[m->address.value];
      } else if (s.live.count(m->address.value) != 0) {
        if (--s.live[m->address.value] == 0) s.live.erase(m->address.value);
      } else {
        ++s.freed_unknown;
      }
      break;
    }
    case ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API: {
      // Only the allocation and free calls are configured.
      const bool free_call =
          (record.kind == ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API &&
           record.operation == ROCPROFILER_HSA_CORE_API_ID_hsa_memory_free) ||
          (record.kind == ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API &&
           record.operation ==
               ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_memory_pool_free);
      if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
        s.hsa_call = record.correlation_id.internal;
      } else {
        ++s.memory_calls[free_call ? ROCPROFILER_MEMORY_ALLOCATION_FREE
                                   : ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE];
      }
      break;
    }
    default:
      break;
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  {
    std::lock_guard<std::mutex> lock(S().mutex);
    ++S().initialized;
  }
  rocprofiler_context_id_t context{};
  if (rocprofiler_create_context(&context) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                    ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
                    ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                    ROCPROFILER_CALLBACK_TRACING_HIP_STREAM,
                    ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                    ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION}) {
    if (rocprofiler_configure_callback_tracing_service(context, kind, nullptr,
                                                       0, &Callback, nullptr) !=
        ROCPROFILER_STATUS_SUCCESS) {
      fprintf(stderr, "sdk_recorder: kind %d not configured\n", kind);
    }
  }
  if (rocprofiler_configure_callback_tracing_service(
          context, ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, nullptr, 0,
          &Callback, nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    fprintf(stderr, "sdk_recorder: MEMORY_ALLOCATION not configured\n");
  }
  const rocprofiler_tracing_operation_t core[] = {
      ROCPROFILER_HSA_CORE_API_ID_hsa_memory_allocate,
      ROCPROFILER_HSA_CORE_API_ID_hsa_memory_free};
  const rocprofiler_tracing_operation_t amd[] = {
      ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_memory_pool_allocate,
      ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_memory_pool_free};
  rocprofiler_configure_callback_tracing_service(
      context, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, core, 2, &Callback,
      nullptr);
  rocprofiler_configure_callback_tracing_service(
      context, ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API, amd, 2, &Callback,
      nullptr);
  return rocprofiler_start_context(context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                          : 1;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, "sdk_recorder");
}

__attribute__((constructor)) void Start() {
  if (rocprofiler_force_configure(&Configure) != ROCPROFILER_STATUS_SUCCESS) {
    fprintf(stderr, "sdk_recorder: not configured\n");
  }
}

__attribute__((destructor)) void Stop() {
  Seen& s = S();
  // Completions arrive on the tracer's completion thread: wait (at most
  // 10 s) for every dispatch and copy begun.
  for (int i = 0; i < 10000; ++i) {
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (s.dispatches_done >= s.dispatches_begun &&
          s.copies_done >= s.copies_begun) {
        break;
      }
    }
    usleep(1000);
  }
  const char* path = getenv("SDK_RECORDER_OUT");
  FILE* f = path ? fopen(path, "w") : stderr;
  if (f == nullptr) return;
  std::lock_guard<std::mutex> lock(s.mutex);
  for (auto& [id, n] : s.dispatches) {
    auto it = s.kernel_names.find(id);
    fprintf(f, "dispatch %s %d\n",
            it == s.kernel_names.end() ? "?" : it->second.c_str(), n);
  }
  for (auto& [op, n] : s.copies) {
    const char* name = nullptr;
    rocprofiler_query_callback_tracing_kind_operation_name(
        ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY, op, &name, nullptr);
    fprintf(f, "copy %s %d\n", name ? name : "?", n);
  }
  for (auto& [name, sizes] : s.symbols) {
    fprintf(f, "symbol %s %s\n", name.c_str(), sizes.c_str());
  }
  fprintf(f, "begun %d %d done %d %d\n", s.dispatches_begun, s.copies_begun,
          s.dispatches_done, s.copies_done);
  fprintf(f, "initialized %d\n", s.initialized);
  for (int32_t op : {ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE,
                     ROCPROFILER_MEMORY_ALLOCATION_FREE}) {
    const char* name = nullptr;
    rocprofiler_query_callback_tracing_kind_operation_name(
        ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, op, &name, nullptr);
    fprintf(f, "memory %s %d %d %d\n", name ? name : "?", s.memory[op],
            s.memory_calls[op], s.memory_unmatched[op]);
  }
  fprintf(f, "freed_unknown %d\n", s.freed_unknown);
  for (auto& [id, value] : s.creates) {
    fprintf(f, "stream_create %llu %llu\n", (unsigned long long)id,
            (unsigned long long)value);
  }
  for (auto& [id, value] : s.destroys) {
    fprintf(f, "stream_destroy %llu %llu\n", (unsigned long long)id,
            (unsigned long long)value);
  }
  for (auto& [key, n] : s.sets) {
    fprintf(f, "stream_set %s %llu %d\n", key.first.c_str(),
            (unsigned long long)key.second, n);
  }
  fprintf(f, "stream_set_phases %d %d %d\n", s.set_enters, s.set_exits,
          s.set_unfollowed);
  fprintf(f, "hip_headers %d %d %d\n", HIP_VERSION_MAJOR, HIP_VERSION_MINOR,
          HIP_VERSION_PATCH);
  for (auto& [key, n] : s.runtime_inits) {
    fprintf(f, "runtime_init %d %llu %d\n", key.first,
            (unsigned long long)key.second, n);
  }
  // The environment a child started now would inherit.
  const char* tools = getenv("HSA_TOOLS_LIB");
  fprintf(f, "hsa_tools_lib %s\n", tools == nullptr ? "-" : tools);
  if (f != stderr) fclose(f);
}

}  // namespace
