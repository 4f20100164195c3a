// A program as roctracer's users write it: built by the test with the
// system g++ and default flags against a stand-in library that carries
// ROCm's symbol versions, then run on ours. It uses functions of both ROCm
// nodes (ROCTRACER_4.0 and 4.1) and rocTX, and exits 0 only when each
// behaved.
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <cstdio>

namespace {

int g_failures = 0;
#define EXPECT(cond)                                                \
  do {                                                              \
    if (!(cond)) {                                                  \
      std::fprintf(stderr, "abi_client:%d: %s\n", __LINE__, #cond); \
      ++g_failures;                                                 \
    }                                                               \
  } while (0)

int g_marks = 0;
int g_callbacks = 0;

void OnBuffer(const char* begin, const char* end, void*) {
  const activity_record_t* record =
      reinterpret_cast<const activity_record_t*>(begin);
  const activity_record_t* stop =
      reinterpret_cast<const activity_record_t*>(end);
  while (record < stop) {
    if (record->domain == ACTIVITY_DOMAIN_ROCTX &&
        record->op == ROCTX_API_ID_roctxMarkA) {
      ++g_marks;
    }
    if (roctracer_next_record(record, &record) != ROCTRACER_STATUS_SUCCESS) {
      break;
    }
  }
}

void OnCallback(uint32_t domain, uint32_t, const void*, void*) {
  if (domain == ACTIVITY_DOMAIN_ROCTX) ++g_callbacks;
}

}  // namespace

int main() {
  EXPECT(roctracer_version_major() == ROCTRACER_VERSION_MAJOR);
  EXPECT(roctracer_version_minor() == ROCTRACER_VERSION_MINOR);
  EXPECT(roctx_version_major() == ROCTX_VERSION_MAJOR);
  EXPECT(roctracer_error_string() != nullptr);
  roctracer_timestamp_t now = 0;
  EXPECT(roctracer_get_timestamp(&now) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(now > 0);

  // ROCTRACER_4.0: an explicit pool.
  roctracer_properties_t props{};
  props.buffer_size = 4096;
  props.buffer_callback_fun = OnBuffer;
  roctracer_pool_t* pool = nullptr;
  EXPECT(roctracer_open_pool_expl(&props, &pool) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(pool != nullptr);
  EXPECT(roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_ROCTX, pool) ==
         ROCTRACER_STATUS_SUCCESS);
  roctxMarkA("explicit pool");
  EXPECT(roctracer_flush_activity_expl(pool) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(g_marks == 1);
  EXPECT(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_ROCTX) ==
         ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_close_pool_expl(pool) == ROCTRACER_STATUS_SUCCESS);

  // ROCTRACER_4.1: the default pool.
  EXPECT(roctracer_open_pool(&props) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX) ==
         ROCTRACER_STATUS_SUCCESS);
  roctxMarkA("default pool");
  EXPECT(roctracer_flush_activity() == ROCTRACER_STATUS_SUCCESS);
  EXPECT(g_marks == 2);
  EXPECT(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_ROCTX) ==
         ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctracer_close_pool() == ROCTRACER_STATUS_SUCCESS);

  // Callbacks and the rest of rocTX.
  EXPECT(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX, OnCallback,
                                          nullptr) == ROCTRACER_STATUS_SUCCESS);
  EXPECT(roctxRangePushA("range") == 0);
  EXPECT(roctxRangePop() == 0);
  roctracer_stop();
  roctx_range_id_t id = roctxRangeStartA("stopped");
  roctxRangeStop(id);
  roctracer_start();
  EXPECT(g_callbacks == 2);
  EXPECT(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_ROCTX) ==
         ROCTRACER_STATUS_SUCCESS);

  std::printf("abi_client: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
