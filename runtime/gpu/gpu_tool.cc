#include "runtime/gpu/gpu_tool.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/activity/pool_registry.h"
#include "runtime/gpu/agents.h"
#include "runtime/gpu/code_objects.h"
#include "runtime/gpu/completion.h"
#include "runtime/gpu/copy_intercept.h"
#include "runtime/gpu/gpu_clock.h"
#include "runtime/gpu/hip_ops_records.h"
#include "runtime/gpu/hsa_evt_callbacks.h"
#include "runtime/gpu/hsa_ops_records.h"
#include "runtime/gpu/queue_intercept.h"
#include "runtime/gpu/runtime_table.h"
#include "runtime/gpu/scratch_events.h"
#include "runtime/gpu/tool_request.h"
#include "runtime/gpu/valid_signals.h"
#include "runtime/pool/process_exit.h"

namespace roctracer::gpu {

using activity::FlushPoint;
using activity::SetBeforeFlushHook;

namespace {

HsaApiTable* g_table = nullptr;

void BeforePoolFlush(FlushPoint /*point*/) {
  HarvestAll(HarvestReason::kFlush);
}

// Process exit's first step (runtime/pool/process_exit.h): wait for the
// work in flight and report it while the pools are open and the tools'
// observers registered. (Installing does not arm the exit handler: that
// would run it before exit handlers the program registers between hsa_init
// and opening its pool.)
void DrainAtExit() { HarvestAll(HarvestReason::kExit); }

template <class Table, class Fn>
void Put(const HsaApiTable* table, Table* sub, Fn Table::*slot, Fn fn,
         bool (*has)(const HsaApiTable*, size_t)) {
  const size_t offset =
      reinterpret_cast<size_t>(&(static_cast<Table*>(nullptr)->*slot));
  if (has(table, offset)) sub->*slot = fn;
}

}  // namespace

void Install(HsaApiTable* table) {
  // The table came: HSA_TOOLS_LIB goes back to the user's value, if this
  // library had to name itself there (tool_request.h).
  NoteTableHandedOver();
  const char* off = std::getenv("ROCTRACER_GPU");
  if (off != nullptr && std::strcmp(off, "0") == 0) return;
  SaveRuntimeTable(table);
  g_table = table;
  AddObserver(HsaOpsRecords());
  AddObserver(HipOpsRecords());
  AddObserver(HsaEvtCallbacks());
  SetBeforeFlushHook(&BeforePoolFlush);
  process_exit::SetGpuDrain(&DrainAtExit);
  InstallScratchHooks(table);
  CoreApiTable* core = table->core_;
  AmdExtTable* amd = table->amd_ext_;
  if (core == nullptr || amd == nullptr) return;
  Put(table, core, &CoreApiTable::hsa_executable_freeze_fn, &ExecutableFreeze,
      &CoreHasSlot);
  Put(table, core, &CoreApiTable::hsa_executable_destroy_fn, &ExecutableDestroy,
      &CoreHasSlot);
  InstallCopyWrappers(table, core, amd);
  if (!AmdHasSlot(table,
                  offsetof(AmdExtTable, hsa_amd_queue_intercept_create_fn)) ||
      !AmdHasSlot(table,
                  offsetof(AmdExtTable, hsa_amd_queue_intercept_register_fn))) {
    std::fprintf(stderr,
                 "roctracer: the HSA runtime has no queue-intercept API; "
                 "kernel dispatches and barriers are not traced\n");
    return;
  }
  Put(table, core, &CoreApiTable::hsa_queue_create_fn, &QueueCreate,
      &CoreHasSlot);
  Put(table, core, &CoreApiTable::hsa_queue_destroy_fn, &QueueDestroy,
      &CoreHasSlot);
  Put(table, amd, &AmdExtTable::hsa_amd_profiling_set_profiler_enabled_fn,
      &ProfilerEnable, &AmdHasSlot);
}

void Uninstall() {
  if (g_table == nullptr) return;
  RestoreScratchHooks();
  ShutDown();
  ResetAgents();
  ResetSystemClock();
  ResetCopyProfiling();
  ForgetAllSignals();
  // The runtime's own functions back in every slot this file replaced.
  CoreApiTable* core = g_table->core_;
  AmdExtTable* amd = g_table->amd_ext_;
  if (core != nullptr && amd != nullptr) {
    const CoreApiTable& c = Core();
    const AmdExtTable& a = Amd();
    auto restore = [](auto* slot, auto saved) {
      if (saved != nullptr) *slot = saved;
    };
    restore(&core->hsa_executable_freeze_fn, c.hsa_executable_freeze_fn);
    restore(&core->hsa_executable_destroy_fn, c.hsa_executable_destroy_fn);
    restore(&core->hsa_queue_create_fn, c.hsa_queue_create_fn);
    restore(&core->hsa_queue_destroy_fn, c.hsa_queue_destroy_fn);
    restore(&amd->hsa_amd_profiling_set_profiler_enabled_fn,
            a.hsa_amd_profiling_set_profiler_enabled_fn);
    RestoreCopyWrappers(core, amd);
  }
  g_table = nullptr;
}

}  // namespace roctracer::gpu
