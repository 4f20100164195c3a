// Internal state shared by the parts of the software HSA runtime. Every
// public entry point is a function in namespace softhsa::api with the exact
// signature of its HSA counterpart; table.cc puts them into the HsaApiTable
// that the exported symbols dispatch through.
#ifndef SOFTHSA_RUNTIME_H_
#define SOFTHSA_RUNTIME_H_

#define AMD_INTERNAL_BUILD
#include <hsa/hsa.h>
#include <hsa/hsa_api_trace.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace softhsa {

// State that runtime threads use is allocated once and never destroyed
// (`T& g_x = *new T;`): a program may exit without hsa_shut_down while
// packet processors, handlers and copies still run, and neither they nor a
// joinable std::thread may meet a destroyed global.

// The runtime's one table; tools edit it in OnLoad.
HsaApiTable* Table();
void FillTable();

// hsa_init's reference count: every call other than hsa_init and
// hsa_status_string answers HSA_STATUS_ERROR_NOT_INITIALIZED while it is 0.
extern std::atomic<int> g_init_count;
inline bool Initialized() {
  return g_init_count.load(std::memory_order_acquire) > 0;
}

struct Agent {
  hsa_device_type_t type;
  uint32_t node;  // HSA_AGENT_INFO_NODE; also the agent's index
  std::string name;
  std::vector<struct Pool*> pools;
  // A kernel agent's scratch threshold set by
  // hsa_amd_agent_set_async_scratch_limit (UINT64_MAX:
  // SOFTHSA_SCRATCH_LIMIT's).
  std::atomic<uint64_t> scratch_limit{UINT64_MAX};
};
struct Pool {
  Agent* owner;
  bool fine_grained;
  bool kernarg;
  size_t size;
  // GLOBAL, or GROUP for the per-workgroup LDS a kernel agent reports as a
  // pool of its own (no runtime allocation from it, as in ROCR).
  hsa_amd_segment_t segment = HSA_AMD_SEGMENT_GLOBAL;
};

// The copy engines (SDMA) a kernel agent reports, none of them for xGMI
// (HSA_AMD_AGENT_INFO_NUM_SDMA_ENG): copy.cc runs every copy on one runtime
// thread whichever engine it names.
constexpr uint32_t kSdmaEngines = 2;

const std::vector<Agent*>& Agents();
Agent* ToAgent(hsa_agent_t agent);  // nullptr when not one of ours
inline hsa_agent_t ToHandle(const Agent* a) {
  return hsa_agent_t{reinterpret_cast<uint64_t>(a)};
}
Pool* ToPool(uint64_t handle);
void CreateSystem();   // agents and pools, from the environment
void DestroySystem();  // at the last hsa_shut_down

// Clocks (clock.cc). The system domain is HSA_SYSTEM_INFO_TIMESTAMP; the
// device domain is what a kernel agent's packet processor stamps. Their
// settings are read from the environment at the first hsa_init.
void ReadClockSettings();
uint64_t SystemTicks();
uint64_t SystemFrequency();
uint64_t DeviceTicks();
uint64_t DeviceFrequency();
uint64_t DeviceToSystem(uint64_t device_ticks);
uint64_t NsToSystemTicks(uint64_t ns);

// Background threads that must stop at the last hsa_shut_down.
void StopAsyncThread();
void StopCopyThread();
// Runs the copy engine's next copy whose dependencies are met on the calling
// thread, a waiter spinning for a signal (copy.cc): false when there is none
// or the engine is running one. ROCR's waits spin while the GPU's copy
// engine works beside them; here the engine is a thread that the spinning
// waiter may keep off its CPU (on one CPU, or while the scheduler wakes it on
// another), so the waiter does the engine's next step itself.
bool RunCopyForWaiter();
// Registered with atexit at the first hsa_init: waits (boundedly) until the
// async thread has run every handler due when exit was called.
void RunDueHandlersAtExit();
void DestroyAllQueues();
void DestroyAllExecutables();
void DestroyAllSignals();
void ResetMemory();

// Tools (tools.cc).
void LoadTools();
void UnloadTools();

// Fault injection (faults.cc), read from SOFTHSA_FAULTS at hsa_init.
struct Faults {
  uint64_t dispatch_error_at = 0;  // 1-based dispatch number, 0 = never
  uint64_t dispatch_delay_us = 0;  // completion delayed by this much
  uint64_t copy_error_at = 0;      // 1-based copy number
  uint64_t copy_delay_us = 0;
  uint64_t drop_queue_at = 0;   // the Nth dispatch drops its queue
  uint64_t delay_queue_id = 0;  // queue id + 1 whose completions are late
  uint64_t delay_queue_us = 0;
  bool host_address_error = false;  // query_host_address always fails
};
const Faults& GetFaults();
void ReadFaults();

}  // namespace softhsa

#endif  // SOFTHSA_RUNTIME_H_
