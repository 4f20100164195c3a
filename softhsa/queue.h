// User-mode AQL queues and their packet processors.
#ifndef SOFTHSA_QUEUE_H_
#define SOFTHSA_QUEUE_H_

#include <array>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "softhsa/runtime.h"
#include "softhsa/signal.h"

namespace softhsa {

struct Queue {
  hsa_queue_t q;  // first: a queue's hsa_queue_t* is its Queue*
  std::atomic<uint64_t> write_index{0};
  std::atomic<uint64_t> read_index{0};
  Agent* agent = nullptr;
  Signal* doorbell = nullptr;
  bool own_doorbell = true;
  void (*callback)(hsa_status_t, hsa_queue_t*, void*) = nullptr;
  void* callback_data = nullptr;
  std::atomic<bool> stop{false};
  std::atomic<bool> active{true};
  std::atomic<bool> profiling{false};
  std::thread processor;
  // An intercept queue forwards its packets, through its interceptors, to
  // `lower`, a queue of the same agent that executes them (whose `upper` it
  // is). As in ROCR, the packets are taken on the thread that rings the
  // doorbell, under `drain_mutex`; what does not fit into the lower queue
  // waits in `overflow` until the lower queue's processor has made room
  // (`retry`) and takes them itself.
  Queue* lower = nullptr;
  Queue* upper = nullptr;
  std::mutex intercept_mutex;
  std::vector<std::pair<hsa_amd_queue_intercept_handler, void*>> interceptors;
  std::mutex drain_mutex;
  uint64_t next_packet = 0;  // first packet of the ring not yet taken
  std::vector<std::array<uint8_t, 64>> overflow;
  std::atomic<bool> retry{false};
  // Bytes of main scratch the queue holds (scratch.h); its processor's.
  uint64_t scratch_bytes = 0;
};

inline Queue* ToQueue(const hsa_queue_t* q) {
  return reinterpret_cast<Queue*>(const_cast<hsa_queue_t*>(q));
}

}  // namespace softhsa

#endif  // SOFTHSA_QUEUE_H_
