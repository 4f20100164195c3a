// Right after MPI_Init / MPI_Init_thread and right before MPI_Finalize (called
// by libroctrace_mpi.so, which interposes them: tool/mpi_shim.cc), this rank
// measures its clock against rank 0's by ping-pong (clock_offset.h) through a
// private duplicate of MPI_COMM_WORLD, so that no message can meet the
// program's.
// The tool records the offsets (rocpd metadata) and `roctrace merge` puts
// the ranks on rank 0's clock.
//
// The MPI library is reached without its headers (the tool is built without
// one): handles are Open MPI's, the addresses of its predefined objects
// (MPI_COMM_WORLD is &ompi_mpi_comm_world, MPI_BYTE &ompi_mpi_byte). Another
// MPI (MPICH's integer handles) is not recognised: its ranks are traced,
// not synchronised, and the database says so.
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "roctrace/tool/clock_offset.h"
#include "roctrace/tool/tool.h"

namespace roctrace {
namespace {

// Round trips per rank: the shortest of them bounds the offset.
constexpr int kRoundTrips = 20;
// A tag of our own on our own communicator.
constexpr int kTag = 0x7274;

using Handle = void*;
struct Mpi {
  int (*comm_rank)(Handle, int*);
  int (*comm_size)(Handle, int*);
  int (*comm_dup)(Handle, Handle*);
  int (*comm_free)(Handle*);
  int (*send)(const void*, int, Handle, int, int, Handle);
  int (*recv)(void*, int, Handle, int, int, Handle, void*);
  Handle world;
  Handle byte;
};

template <typename F>
void Find(const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

bool FindMpi(Mpi* m) {
  Find("PMPI_Comm_rank", &m->comm_rank);
  Find("PMPI_Comm_size", &m->comm_size);
  Find("PMPI_Comm_dup", &m->comm_dup);
  Find("PMPI_Comm_free", &m->comm_free);
  Find("PMPI_Send", &m->send);
  Find("PMPI_Recv", &m->recv);
  m->world = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
  m->byte = dlsym(RTLD_DEFAULT, "ompi_mpi_byte");
  return m->comm_rank && m->comm_size && m->comm_dup && m->comm_free &&
         m->send && m->recv && m->world && m->byte;
}

struct State {
  Mpi mpi{};
  bool usable = false;
  Handle comm = nullptr;
  int rank = 0;
  int size = 1;
};
State g_state;

// Rank 0 answers each other rank's requests in turn with its clock; the
// others measure. Every rank takes part (MPI_Init and MPI_Finalize are
// collective).
ClockOffset Synchronise(Tool* tool) {
  const Mpi& m = g_state.mpi;
  // Open MPI's MPI_Recv writes at most its MPI_Status (24 bytes).
  alignas(8) unsigned char status[64];
  ClockOffset result;
  if (g_state.rank == 0) {
    for (int peer = 1; peer < g_state.size; ++peer) {
      for (int i = 0; i < kRoundTrips; ++i) {
        char request = 0;
        if (m.recv(&request, 1, m.byte, peer, kTag, g_state.comm, status) != 0)
          return result;
        const uint64_t now = tool->Now();
        if (m.send(&now, sizeof(now), m.byte, peer, kTag, g_state.comm) != 0)
          return result;
      }
    }
    result.valid = true;
    result.local_ns = tool->Now();
    return result;
  }
  std::vector<RoundTrip> trips;
  for (int i = 0; i < kRoundTrips; ++i) {
    RoundTrip t{};
    const char request = 1;
    t.t0 = tool->Now();
    if (m.send(&request, 1, m.byte, 0, kTag, g_state.comm) != 0 ||
        m.recv(&t.remote, sizeof(t.remote), m.byte, 0, kTag, g_state.comm,
               status) != 0) {
      return result;
    }
    t.t1 = tool->Now();
    trips.push_back(t);
  }
  return BestOffset(trips);
}

void AfterInit() {
  Tool* tool = LoadedTool();
  if (tool == nullptr) return;
  if (!FindMpi(&g_state.mpi)) {
    tool->NoteMpiClock("mpi.clock",
                       "not synchronised: the MPI library is not Open MPI");
    return;
  }
  const Mpi& m = g_state.mpi;
  if (m.comm_rank(m.world, &g_state.rank) != 0 ||
      m.comm_size(m.world, &g_state.size) != 0 ||
      m.comm_dup(m.world, &g_state.comm) != 0) {
    tool->NoteMpiClock("mpi.clock", "not synchronised: MPI calls failed");
    return;
  }
  g_state.usable = true;
  tool->SetMpiRank(g_state.rank, g_state.size);
  tool->SetClockOffset("init", Synchronise(tool));
}

void BeforeFinalize() {
  Tool* tool = LoadedTool();
  if (tool == nullptr || !g_state.usable) return;
  tool->SetClockOffset("finalize", Synchronise(tool));
  g_state.mpi.comm_free(&g_state.comm);
  g_state.usable = false;
}

}  // namespace
}  // namespace roctrace

// What libroctrace_mpi.so calls around the MPI library's own MPI_Init* and
// MPI_Finalize (tool/mpi_shim.cc).
extern "C" {

__attribute__((visibility("default"))) void
roctrace_internal_mpi_initialized() {
  roctrace::AfterInit();
}

__attribute__((visibility("default"))) void roctrace_internal_mpi_finalizing() {
  roctrace::BeforeFinalize();
}

}  // extern "C"
