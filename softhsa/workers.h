// Worker threads that run a dispatch's workgroups concurrently.
#ifndef SOFTHSA_WORKERS_H_
#define SOFTHSA_WORKERS_H_

#include <cstdint>

namespace softhsa {

// Calls body(i, ctx) for every i in [0, count), on the calling thread and on
// up to SOFTHSA_WORKERS (default: cores - 1) worker threads; returns when all
// calls returned.
void ParallelFor(uint64_t count, void (*body)(uint64_t i, void* ctx),
                 void* ctx);
void StopWorkers();

}  // namespace softhsa

#endif  // SOFTHSA_WORKERS_H_
