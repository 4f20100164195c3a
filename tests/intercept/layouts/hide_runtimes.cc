// LD_PRELOADed by link_layouts_test.py to simulate a machine without the ROCm
// runtimes: dlopen of a name containing $HIDE_LIBRARIES' words (comma
// separated) fails as for a missing file.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

extern "C" void* dlopen(const char* file, int mode) {
  using Fn = void* (*)(const char*, int);
  static Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "dlopen"));
  const char* hide = std::getenv("HIDE_LIBRARIES");
  if (file != nullptr && hide != nullptr) {
    std::string words(hide);
    size_t start = 0;
    while (start <= words.size()) {
      size_t end = words.find(',', start);
      if (end == std::string::npos) end = words.size();
      const std::string w = words.substr(start, end - start);
      if (!w.empty() && std::strstr(file, w.c_str()) != nullptr) return nullptr;
      start = end + 1;
    }
  }
  return real(file, mode);
}
