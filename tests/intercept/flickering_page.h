// A page holding a string that one thread unmaps and maps again (at the
// same address, with the same bytes: a file's page) while other threads
// read the string: the race a fault-safe reader must survive.
#ifndef ROCTRACER_TESTS_INTERCEPT_FLICKERING_PAGE_H_
#define ROCTRACER_TESTS_INTERCEPT_FLICKERING_PAGE_H_

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

namespace roctracer_test {

class FlickeringPage {
 public:
  static constexpr size_t kPage = 4096;
  static constexpr size_t kOffset = 100;

  explicit FlickeringPage(const std::string& text) : text_(text) {
    fd_ = memfd_create("flickering_page", MFD_CLOEXEC);
    if (fd_ < 0) std::abort();
    std::string page(kPage, '\0');
    page.replace(kOffset, text.size(), text);
    if (write(fd_, page.data(), page.size()) !=
        static_cast<ssize_t>(page.size())) {
      std::abort();
    }
    at_ = mmap(nullptr, kPage, PROT_READ, MAP_SHARED, fd_, 0);
    if (at_ == MAP_FAILED) std::abort();
  }
  ~FlickeringPage() {
    if (mapped_) munmap(at_, kPage);
    close(fd_);
  }

  const char* text() const { return static_cast<const char*>(at_) + kOffset; }
  const std::string& expected() const { return text_; }

  // Unmaps and maps the page again until `enough(cycles)` or 10 s have
  // passed; the number of cycles. Stops early, mapped or not, when something
  // else took the address while it was unmapped.
  int Flicker(const std::function<bool(int)>& enough) {
    const auto start = std::chrono::steady_clock::now();
    int cycles = 0;
    while (!enough(cycles) && std::chrono::steady_clock::now() - start <
                                  std::chrono::seconds(10)) {
      if (munmap(at_, kPage) != 0) std::abort();
      mapped_ = false;
      std::this_thread::yield();
      void* again =
          mmap(at_, kPage, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE, fd_, 0);
      if (again != at_) {
        if (again != MAP_FAILED) munmap(again, kPage);  // an old kernel
        break;
      }
      mapped_ = true;
      ++cycles;
      std::this_thread::yield();
    }
    return cycles;
  }

 private:
  std::string text_;
  int fd_ = -1;
  void* at_ = nullptr;
  bool mapped_ = true;
};

}  // namespace roctracer_test

#endif  // ROCTRACER_TESTS_INTERCEPT_FLICKERING_PAGE_H_
