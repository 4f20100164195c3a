#include "roctrace/tool/sdk_operation_names.h"

#include <dlfcn.h>
#include <rocprofiler-sdk/buffer_tracing.h>

#include <cstdint>

namespace roctrace {
namespace {

// Looked up, not linked (only the declarations' types are used): the tool
// also runs where the tracer in the process has no SDK API (then every
// name is ours to number).
template <typename F>
F* Find(const char* name) {
  return reinterpret_cast<F*>(dlsym(RTLD_DEFAULT, name));
}

struct Walk {
  decltype(rocprofiler_query_buffer_tracing_kind_operation_name)* name_of;
  std::vector<std::vector<std::string>>* kinds;
};

int AddOperation(rocprofiler_buffer_tracing_kind_t kind,
                 rocprofiler_tracing_operation_t operation, void* data) {
  auto* walk = static_cast<Walk*>(data);
  const char* name = nullptr;
  uint64_t length = 0;
  if (operation < 0 ||
      walk->name_of(kind, operation, &name, &length) !=
          ROCPROFILER_STATUS_SUCCESS ||
      name == nullptr) {
    return 0;
  }
  auto& names = (*walk->kinds)[static_cast<size_t>(kind)];
  if (names.size() <= static_cast<size_t>(operation)) {
    names.resize(static_cast<size_t>(operation) + 1);
  }
  names[static_cast<size_t>(operation)].assign(name, length);
  return 0;
}

}  // namespace

std::vector<std::vector<std::string>> SdkBufferOperationNames() {
  std::vector<std::vector<std::string>> kinds;
  auto* iterate_operations =
      Find<decltype(rocprofiler_iterate_buffer_tracing_kind_operations)>(
          "rocprofiler_iterate_buffer_tracing_kind_operations");
  auto* name_of =
      Find<decltype(rocprofiler_query_buffer_tracing_kind_operation_name)>(
          "rocprofiler_query_buffer_tracing_kind_operation_name");
  if (iterate_operations == nullptr || name_of == nullptr) return kinds;
  kinds.resize(ROCPROFILER_BUFFER_TRACING_LAST);
  Walk walk{name_of, &kinds};
  for (int k = ROCPROFILER_BUFFER_TRACING_NONE + 1;
       k < ROCPROFILER_BUFFER_TRACING_LAST; ++k) {
    iterate_operations(static_cast<rocprofiler_buffer_tracing_kind_t>(k),
                       &AddOperation, &walk);
  }
  return kinds;
}

std::vector<std::string> SdkBufferKindNames() {
  std::vector<std::string> kinds;
  auto* name_of = Find<decltype(rocprofiler_query_buffer_tracing_kind_name)>(
      "rocprofiler_query_buffer_tracing_kind_name");
  if (name_of == nullptr) return kinds;
  kinds.resize(ROCPROFILER_BUFFER_TRACING_LAST);
  for (int k = ROCPROFILER_BUFFER_TRACING_NONE;
       k < ROCPROFILER_BUFFER_TRACING_LAST; ++k) {
    const char* name = nullptr;
    uint64_t length = 0;
    if (name_of(static_cast<rocprofiler_buffer_tracing_kind_t>(k), &name,
                &length) == ROCPROFILER_STATUS_SUCCESS &&
        name != nullptr) {
      kinds[static_cast<size_t>(k)].assign(name, length);
    }
  }
  return kinds;
}

}  // namespace roctrace
