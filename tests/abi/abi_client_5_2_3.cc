// A program written against ROCm 5.2.3's roctracer headers, compiled against
// ours and linked against a stand-in of that release's unversioned
// libraries: the set-up calls its roctracer.h declared, and the rocTX
// internals its roctracer_roctx.h and roctx.h declared. Prints
// "abi_client_5_2_3: N failures".
#include <roctracer.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int g_failures = 0;
#define CHECK(cond)                                       \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond); \
      ++g_failures;                                       \
    }                                                     \
  } while (0)

std::vector<std::string> g_marks;
void OnMark(uint32_t domain, uint32_t op, const void* data, void* arg) {
  const auto* d = static_cast<const roctx_api_data_t*>(data);
  if (domain == ACTIVITY_DOMAIN_ROCTX && op == ROCTX_API_ID_roctxMarkA &&
      arg == &g_marks) {
    g_marks.push_back(d->args.roctxMarkA.message);
  }
}

void OnRange(const roctx_range_data_t* data, void* arg) {
  static_cast<std::vector<std::string>*>(arg)->push_back(data->message);
}

}  // namespace

int main() {
  const bool loaded = roctracer_load();
  CHECK(loaded);
  roctracer_flush_buf();
  roctracer_unload();
  CHECK(roctracer_version_major() == 4);
  CHECK(roctracer_error_string() != nullptr);

  CHECK(RegisterApiCallback(ROCTX_API_ID_roctxMarkA,
                            reinterpret_cast<void*>(&OnMark), &g_marks));
  roctxMarkA("hello");
  CHECK(g_marks.size() == 1 && g_marks[0] == "hello");
  CHECK(roctxRangePushA("open") == 0);
  std::vector<std::string> ranges;
  RangeStackIterate(&OnRange, &ranges);
  CHECK(ranges.size() == 1 && ranges[0] == "open");
  CHECK(roctxRangePop() == 0);
  CHECK(RemoveApiCallback(ROCTX_API_ID_roctxMarkA));
  roctxMarkA("unheard");
  CHECK(g_marks.size() == 1);

  // 5.2.3's callback table type, header-only.
  roctx::cb_table_t table;
  activity_rtapi_callback_t fn = nullptr;
  void* arg = &table;
  CHECK(table.get(ROCTX_API_ID_roctxMarkA, &fn, &arg));
  CHECK(fn == nullptr && arg == nullptr);
  CHECK(table.set(ROCTX_API_ID_roctxRangePop, &OnMark, &g_marks));
  CHECK(table.get(ROCTX_API_ID_roctxRangePop, &fn, &arg));
  CHECK(fn == &OnMark && arg == &g_marks);
  CHECK(!table.set(ROCTX_API_ID_NUMBER, &OnMark, nullptr));
  CHECK(!table.get(ROCTX_API_ID_NUMBER, &fn, &arg));

  std::printf("abi_client_5_2_3: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
