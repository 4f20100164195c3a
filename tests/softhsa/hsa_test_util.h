// Small helpers for programs written against the HSA API (the conformance
// tests and the benchmark): find agents and pools, load a code object,
// write packets the way an HSA application does.
#ifndef TESTS_SOFTHSA_HSA_TEST_UTIL_H_
#define TESTS_SOFTHSA_HSA_TEST_UTIL_H_

#include <fcntl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

namespace hsa_test {

inline std::vector<hsa_agent_t> Agents(hsa_device_type_t type) {
  std::vector<hsa_agent_t> out;
  struct Ctx {
    hsa_device_type_t type;
    std::vector<hsa_agent_t>* out;
  } ctx{type, &out};
  hsa_iterate_agents(
      [](hsa_agent_t a, void* d) {
        auto* c = static_cast<Ctx*>(d);
        hsa_device_type_t t;
        hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
        if (t == c->type) c->out->push_back(a);
        return HSA_STATUS_SUCCESS;
      },
      &ctx);
  return out;
}

inline std::vector<hsa_amd_memory_pool_t> Pools(hsa_agent_t agent) {
  std::vector<hsa_amd_memory_pool_t> out;
  hsa_amd_agent_iterate_memory_pools(
      agent,
      [](hsa_amd_memory_pool_t p, void* d) {
        static_cast<std::vector<hsa_amd_memory_pool_t>*>(d)->push_back(p);
        return HSA_STATUS_SUCCESS;
      },
      &out);
  return out;
}

// The CPU agent's pool with KERNARG_INIT (kernarg and host memory).
inline hsa_amd_memory_pool_t KernargPool() {
  for (hsa_agent_t cpu : Agents(HSA_DEVICE_TYPE_CPU)) {
    for (hsa_amd_memory_pool_t p : Pools(cpu)) {
      uint32_t flags = 0;
      hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                   &flags);
      if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) return p;
    }
  }
  return hsa_amd_memory_pool_t{0};
}

struct Loaded {
  hsa_executable_t executable{0};
  hsa_code_object_reader_t reader{0};
  int fd = -1;
};

inline hsa_status_t LoadFile(const std::string& path, hsa_agent_t agent,
                             Loaded* out) {
  out->fd = open(path.c_str(), O_RDONLY);
  if (out->fd < 0) return HSA_STATUS_ERROR_INVALID_FILE;
  hsa_status_t s =
      hsa_code_object_reader_create_from_file(out->fd, &out->reader);
  if (s != HSA_STATUS_SUCCESS) return s;
  s = hsa_executable_create_alt(HSA_PROFILE_FULL,
                                HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                nullptr, &out->executable);
  if (s != HSA_STATUS_SUCCESS) return s;
  s = hsa_executable_load_agent_code_object(out->executable, agent, out->reader,
                                            nullptr, nullptr);
  if (s != HSA_STATUS_SUCCESS) return s;
  return hsa_executable_freeze(out->executable, nullptr);
}

inline void Unload(Loaded* l) {
  if (l->executable.handle) hsa_executable_destroy(l->executable);
  if (l->reader.handle) hsa_code_object_reader_destroy(l->reader);
  if (l->fd >= 0) close(l->fd);
  *l = Loaded{};
}

inline uint64_t KernelObject(hsa_executable_t e, hsa_agent_t agent,
                             const char* name) {
  hsa_executable_symbol_t sym;
  if (hsa_executable_get_symbol_by_name(e, name, &agent, &sym) !=
      HSA_STATUS_SUCCESS) {
    return 0;
  }
  uint64_t object = 0;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                 &object);
  return object;
}

inline uint16_t Header(hsa_packet_type_t type, bool barrier = false) {
  return static_cast<uint16_t>(
      (type << HSA_PACKET_HEADER_TYPE) |
      ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

// Reserves a slot, writes `packet` (64 bytes) with its header last, rings.
inline uint64_t Submit(hsa_queue_t* q, const void* packet) {
  uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) {
  }
  auto* slot = static_cast<uint8_t*>(q->base_address) + (index % q->size) * 64;
  memcpy(slot + 4, static_cast<const uint8_t*>(packet) + 4, 60);
  uint32_t first;
  memcpy(&first, packet, 4);
  __atomic_store_n(reinterpret_cast<uint32_t*>(slot), first, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal,
                             static_cast<hsa_signal_value_t>(index));
  return index;
}

inline hsa_kernel_dispatch_packet_t DispatchPacket(uint64_t kernel_object,
                                                   void* kernarg,
                                                   uint32_t grid_x,
                                                   uint16_t wg_x,
                                                   hsa_signal_t completion) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = Header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = wg_x;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = grid_x;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = kernel_object;
  p.kernarg_address = kernarg;
  p.completion_signal = completion;
  return p;
}

// Empty dispatches back to back on one queue, every `batch`-th one carrying a
// completion signal the producer waits for, so the queue never overflows and
// the producer never waits per packet (the benchmarks' submission loop).
class BatchedDispatcher {
 public:
  BatchedDispatcher(hsa_queue_t* q, uint64_t kernel_object, uint32_t batch)
      : q_(q), batch_(batch) {
    hsa_signal_create(1, 0, nullptr, &done_);
    plain_ = DispatchPacket(kernel_object, nullptr, 1, 1, {0});
    last_ = DispatchPacket(kernel_object, nullptr, 1, 1, done_);
  }
  BatchedDispatcher(const BatchedDispatcher&) = delete;
  BatchedDispatcher& operator=(const BatchedDispatcher&) = delete;
  // Waits for what was submitted since the last wait.
  ~BatchedDispatcher() {
    if (n_ != 0) {
      Submit(q_, &last_);
      WaitDone();
    }
    hsa_signal_destroy(done_);
  }

  void Next() {
    if (++n_ == batch_) {
      Submit(q_, &last_);
      WaitDone();
      hsa_signal_store_relaxed(done_, 1);
      n_ = 0;
    } else {
      Submit(q_, &plain_);
    }
  }

 private:
  void WaitDone() {
    hsa_signal_wait_scacquire(done_, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                              HSA_WAIT_STATE_BLOCKED);
  }

  hsa_queue_t* q_;
  uint32_t batch_;
  uint32_t n_ = 0;
  hsa_signal_t done_;
  hsa_kernel_dispatch_packet_t plain_;
  hsa_kernel_dispatch_packet_t last_;
};

}  // namespace hsa_test

#endif  // TESTS_SOFTHSA_HSA_TEST_UTIL_H_
