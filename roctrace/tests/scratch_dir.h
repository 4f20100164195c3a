// A test's scratch directory: made under $TEST_TMPDIR (Bazel's folder for
// the test; /tmp when the test is run by hand) and removed, with everything
// in it, when the object goes, so that no run leaves anything behind.
#ifndef ROCTRACE_TESTS_SCRATCH_DIR_H_
#define ROCTRACE_TESTS_SCRATCH_DIR_H_

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>

namespace roctrace {

class ScratchDir {
 public:
  // `prefix` names the test in the directory's name (prefix_XXXXXX). Aborts
  // when the directory cannot be made: nothing in the test could be checked.
  explicit ScratchDir(const std::string& prefix) {
    const char* base = getenv("TEST_TMPDIR");
    std::string path =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/" +
        prefix + "_XXXXXX";
    if (mkdtemp(&path[0]) == nullptr) {
      perror(("mkdtemp " + path).c_str());
      abort();
    }
    path_ = path;
  }
  ~ScratchDir() {
    // Children before their directory; links themselves, not their targets.
    nftw(
        path_.c_str(),
        [](const char* p, const struct stat*, int, struct FTW*) {
          remove(p);
          return 0;  // a file that stays does not stop the rest going
        },
        16, FTW_DEPTH | FTW_PHYS);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // A path inside the directory.
  std::string operator/(const std::string& name) const {
    return path_ + "/" + name;
  }

 private:
  std::string path_;
};

}  // namespace roctrace

#endif  // ROCTRACE_TESTS_SCRATCH_DIR_H_
