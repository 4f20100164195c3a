// libroctracer64.so as an HSA runtime tool: ROCR loads the libraries named by
// HSA_TOOLS_LIB (and already-loaded libraries exporting
// HSA_AMD_TOOL_PRIORITY), calls OnLoad with its dispatch table before the
// application's first HSA call goes through it, and OnUnload at shutdown.
// OnLoad puts the generated table wrappers into the core, AMD extension,
// image and finalizer tables; the originals are kept
// (hsa_api::Original*Table()) for forwarding and for the tracer's own
// untraced HSA calls.
#include "runtime/capi/hsa_tool.h"

#include <hsa/hsa_api_trace.h>

#include <atomic>
#include <cstdint>
#include <cstdio>

#include "hsa_table_wrappers.h"
#include "runtime/gpu/gpu_tool.h"
#include "runtime/gpu/tool_request.h"
#include "runtime/intercept/api_consumer.h"

namespace {

// A table whose major version differs from the one the wrappers were
// generated for has a different layout: touching it would corrupt the
// runtime, so the tool refuses to load (ROCR then reports it as failed).
bool MajorMatches(const ApiTableVersion& version, uint32_t expected) {
  return version.major_id == expected;
}

bool TablesCompatible(const HsaApiTable* table) {
  if (!MajorMatches(table->version, HSA_API_TABLE_MAJOR_VERSION)) return false;
  const uint32_t size = table->version.minor_id;
  auto covers = [size](size_t offset) {
    return size >= offset + sizeof(void*);
  };
  if (covers(offsetof(HsaApiTable, core_)) && table->core_ != nullptr &&
      !MajorMatches(table->core_->version, HSA_CORE_API_TABLE_MAJOR_VERSION)) {
    return false;
  }
  if (covers(offsetof(HsaApiTable, amd_ext_)) && table->amd_ext_ != nullptr &&
      !MajorMatches(table->amd_ext_->version,
                    HSA_AMD_EXT_API_TABLE_MAJOR_VERSION)) {
    return false;
  }
  if (covers(offsetof(HsaApiTable, image_ext_)) &&
      table->image_ext_ != nullptr &&
      !MajorMatches(table->image_ext_->version,
                    HSA_IMAGE_API_TABLE_MAJOR_VERSION)) {
    return false;
  }
  if (covers(offsetof(HsaApiTable, finalizer_ext_)) &&
      table->finalizer_ext_ != nullptr &&
      !MajorMatches(table->finalizer_ext_->version,
                    HSA_FINALIZER_API_TABLE_MAJOR_VERSION)) {
    return false;
  }
  return true;
}

}  // namespace

namespace roctracer::capi {

namespace {
// The table being traced, from its hand-over until OnUnload.
std::atomic<HsaApiTable*> g_accepted{nullptr};
}  // namespace

HsaApiTable* AcceptedRuntimeTable() noexcept { return g_accepted.load(); }

void ForgetRuntimeTable() noexcept { g_accepted.store(nullptr); }

void RequestGpuToolPath() noexcept { roctracer::gpu::RequestToolPath(); }

bool AcceptRuntimeTable(HsaApiTable* table) noexcept {
  // The same table again (HSA_TOOLS_LIB naming this library under two
  // names, newer ROCR also finding it loaded, rocprofiler-register and
  // OnLoad both): already traced, and installing again would save the
  // wrappers as the runtime's own functions.
  if (table != nullptr && table == g_accepted.load()) return true;
  if (table == nullptr || !TablesCompatible(table)) {
    std::fprintf(stderr,
                 "roctracer: HSA API table missing or of an unknown major "
                 "version; HSA_API tracing through the runtime disabled\n");
    roctracer::gpu::NoteTableRefused();
    return false;
  }
  // A different table while one is traced: refused before anything is
  // installed in it. The GPU half keeps the runtime's own functions from
  // the first table; saving this one's (possibly a copy of the traced
  // table, wrappers and all) would make the wrappers call themselves.
  if (g_accepted.load() != nullptr) {
    std::fprintf(stderr,
                 "roctracer: a second HSA API table is left untraced (the "
                 "first one handed over is)\n");
    return false;
  }
  // The GPU half first: the API wrappers then enclose it, so an operation
  // carries the correlation ID of the call that submitted it.
  roctracer::gpu::Install(table);
  if (hsa_api::InstallTableWrappers(table) >= 0) {
    g_accepted.store(table);
    return true;
  }
  std::fprintf(stderr, "roctracer: the HSA API table could not be traced\n");
  return false;
}

}  // namespace roctracer::capi

extern "C" {

// Tools ROCR finds loaded by themselves are loaded in ascending priority
// order, after those HSA_TOOLS_LIB names (in its order). Constant-initialised
// (ROCR reads it with dlsym before running anything of ours).
__attribute__((
    visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 50;

__attribute__((visibility("default"))) bool OnLoad(
    HsaApiTable* table, uint64_t /*runtime_version*/,
    uint64_t /*failed_tool_count*/, const char* const* /*failed_tool_names*/) {
  // A second OnLoad with the traced table: loaded, nothing to report again.
  if (table != nullptr && table == roctracer::capi::AcceptedRuntimeTable()) {
    return true;
  }
  if (!roctracer::capi::AcceptRuntimeTable(table)) return false;
  // ROCR passes the table's major version as `runtime_version`, not the
  // runtime's own (rocprofiler-register's): handed on as 0, unknown, for
  // the observer to ask the runtime if it needs it.
  void* tables[1] = {table};
  roctracer::NotifyTablesRegistered("hsa", 0, 0, tables, 1);
  return true;
}

// Called once per OnLoad that returned true: a second call finds nothing
// to restore.
__attribute__((visibility("default"))) void OnUnload() {
  roctracer::capi::ForgetRuntimeTable();
  roctracer::hsa_api::RestoreTableWrappers();
  roctracer::gpu::Uninstall();
  roctracer::gpu::NoteTableWithdrawn();
}

}  // extern "C"
