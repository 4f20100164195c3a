#include "runtime/platform/startup_objects.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace roctracer::platform {
namespace {

struct Range {
  uintptr_t begin;
  uintptr_t end;
};

struct Startup {
  std::vector<Range> segments;  // sorted
  size_t objects = 0;
};

struct Walk {
  std::vector<std::string> wanted;  // names needed so far, and preloads
  std::vector<Range> segments;
  size_t objects = 0;
  bool ended = false;
};

const char* BaseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// LD_PRELOAD as the program was started with (/proc/self/environ holds the
// initial environment: a later setenv does not change it).
void AddInitialPreloads(std::vector<std::string>* wanted) {
  const int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  std::string env;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) env.append(buf, n);
  close(fd);
  for (size_t at = 0; at < env.size();) {
    const size_t end = std::min(env.find('\0', at), env.size());
    if (env.compare(at, 11, "LD_PRELOAD=") == 0) {
      std::string list = env.substr(at + 11, end - at - 11);
      for (char& c : list) {
        if (c == ':') c = ' ';
      }
      for (size_t i = 0; i < list.size();) {
        const size_t j = std::min(list.find(' ', i), list.size());
        if (j > i) wanted->push_back(BaseName(list.substr(i, j - i).c_str()));
        i = j + 1;
      }
    }
    at = end + 1;
  }
}

bool Wanted(const Walk& w, const char* name) {
  if (name == nullptr || *name == '\0') return false;
  return std::find(w.wanted.begin(), w.wanted.end(), name) != w.wanted.end();
}

int Visit(dl_phdr_info* info, size_t, void* arg) {
  auto* w = static_cast<Walk*>(arg);
  const ElfW(Dyn)* dynamic = nullptr;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr +
                                                   info->dlpi_phdr[i].p_vaddr);
    }
  }
  // glibc relocates DT_STRTAB in the in-memory dynamic section (x86-64).
  const char* strtab = nullptr;
  const char* soname = nullptr;
  if (dynamic != nullptr) {
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
      if (d->d_tag == DT_STRTAB)
        strtab = reinterpret_cast<const char*>(d->d_un.d_ptr);
    }
  }
  if (strtab != nullptr) {
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
      if (d->d_tag == DT_SONAME) soname = strtab + d->d_un.d_val;
    }
  }
  const bool is_program = w->objects == 0;
  const bool is_vdso =
      info->dlpi_addr != 0 && info->dlpi_addr == getauxval(AT_SYSINFO_EHDR);
  if (!is_program && !is_vdso && !Wanted(*w, soname) &&
      !Wanted(*w, BaseName(info->dlpi_name))) {
    w->ended = true;
    return 1;
  }
  ++w->objects;
  if (strtab != nullptr) {
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
      if (d->d_tag == DT_NEEDED) w->wanted.push_back(strtab + d->d_un.d_val);
    }
  }
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_R) == 0) continue;
    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    w->segments.push_back(Range{begin, begin + ph.p_memsz});
  }
  return 0;
}

const Startup& Objects() noexcept {
  static const Startup* startup = [] {
    auto* s = new Startup;
    try {
      Walk w;
      AddInitialPreloads(&w.wanted);
      dl_iterate_phdr(&Visit, &w);
      std::sort(
          w.segments.begin(), w.segments.end(),
          [](const Range& a, const Range& b) { return a.begin < b.begin; });
      s->segments = std::move(w.segments);
      s->objects = w.objects;
    } catch (...) {
      s->segments.clear();  // out of memory: no fast path
      s->objects = 0;
    }
    return s;
  }();
  return *startup;
}

}  // namespace

size_t StartupObjectSpan(const void* p, uintptr_t* begin) noexcept {
  const Startup& s = Objects();
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto after =
      std::upper_bound(s.segments.begin(), s.segments.end(), a,
                       [](uintptr_t x, const Range& r) { return x < r.begin; });
  if (after == s.segments.begin()) return 0;
  --after;
  if (a >= after->end) return 0;
  if (begin != nullptr) *begin = after->begin;
  return after->end - a;
}

size_t StartupObjectCount() noexcept { return Objects().objects; }

}  // namespace roctracer::platform
