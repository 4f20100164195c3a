#include "tests/intercept/fake_record.h"

namespace {
fake::Record g_record;
unsigned char g_return[64];
}  // namespace

extern "C" {

__attribute__((visibility("default"))) fake::Record* fake_last_record() {
  return &g_record;
}

__attribute__((visibility("default"))) void fake_begin(const void* ret,
                                                       size_t size) {
  g_record = fake::Record{};
  std::memset(g_return, 0, sizeof(g_return));
  if (ret != nullptr && size <= sizeof(g_return)) {
    std::memcpy(g_return, ret, size);
  }
}

__attribute__((visibility("default"))) const unsigned char*
fake_return_bytes() {
  return g_return;
}

}  // extern "C"
