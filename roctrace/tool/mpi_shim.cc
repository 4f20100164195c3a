// libroctrace_mpi.so: MPI_Init, MPI_Init_thread and MPI_Finalize, interposed.
// roctrace preloads it (after libroctrace_tool.so) only into an MPI job, never
// into other programs: a program that looks for MPI_Init to tell whether it
// runs under MPI must not find one. Each forwards to the MPI library's own
// (dlsym RTLD_NEXT) and lets the tool measure the rank's clock around it
// (tool/mpi_clock.cc).
#include <dlfcn.h>

namespace {

template <typename F>
F Next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

// The tool's hook, if the tool is loaded.
void CallTool(const char* hook) {
  using Fn = void (*)();
  if (auto fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, hook))) fn();
}

// What an MPI call answers when no MPI library is underneath: MPI_ERR_OTHER
// is 16 in Open MPI and MPICH alike.
constexpr int kNoMpi = 16;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int MPI_Init(int* argc, char*** argv) {
  using Fn = int (*)(int*, char***);
  static const Fn real = Next<Fn>("MPI_Init");
  if (real == nullptr) return kNoMpi;
  const int rc = real(argc, argv);
  if (rc == 0) CallTool("roctrace_internal_mpi_initialized");
  return rc;
}

__attribute__((visibility("default"))) int MPI_Init_thread(int* argc,
                                                           char*** argv,
                                                           int required,
                                                           int* provided) {
  using Fn = int (*)(int*, char***, int, int*);
  static const Fn real = Next<Fn>("MPI_Init_thread");
  if (real == nullptr) return kNoMpi;
  const int rc = real(argc, argv, required, provided);
  if (rc == 0) CallTool("roctrace_internal_mpi_initialized");
  return rc;
}

__attribute__((visibility("default"))) int MPI_Finalize() {
  using Fn = int (*)();
  static const Fn real = Next<Fn>("MPI_Finalize");
  if (real == nullptr) return kNoMpi;
  CallTool("roctrace_internal_mpi_finalizing");
  return real();
}

}  // extern "C"
