// A program linked with the tool library libcrash_tool.so and with
// libroctracer64.so.4: it makes argv[2] hsa_status_string calls (and one
// hsa_system_get_info, which starts the tool), prints "calls done", then
// ends the way argv[1] says:
//   return        - returns from main (the control)
//   segv          - dies of SIGSEGV on the main thread
//   abort         - abort() (SIGABRT) on the main thread
//   segv-worker   - dies of SIGSEGV on a second thread, main waiting
#include <hsa/hsa.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "return";
  const long calls = argc > 2 ? std::atol(argv[2]) : 1000;
  uint64_t timestamp = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &timestamp);
  for (long i = 0; i < calls; ++i) {
    const char* text = nullptr;
    hsa_status_string(HSA_STATUS_ERROR, &text);
  }
  std::printf("calls done\n");
  std::fflush(stdout);
  if (std::strcmp(how, "segv") == 0) {
    *static_cast<volatile int*>(nullptr) = 1;
  } else if (std::strcmp(how, "abort") == 0) {
    std::abort();
  } else if (std::strcmp(how, "segv-worker") == 0) {
    std::thread([] { *static_cast<volatile int*>(nullptr) = 2; }).join();
  }
  return 0;
}
