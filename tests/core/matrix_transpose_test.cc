// The tracing half of the specification's MatrixTranspose sample, built as an
// ordinary client: it includes the public headers and links the two shared
// libraries. The GPU half is replaced by rocTX annotations (no GPU here, and
// HIP_API tables come with the generator), so every callback and record it
// sees comes from the ROCTX domain. The spec's stop_tracing() calls
// roctracer_disable_api_callback/_activity, which no roctracer release
// exported; the 4.1 names roctracer_disable_callback/_activity are used.
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#define ROCTRACER_CALL(call)                                            \
  do {                                                                  \
    int err = call;                                                     \
    if (err != 0) {                                                     \
      std::cerr << roctracer_error_string() << std::endl << std::flush; \
      abort();                                                          \
    }                                                                   \
  } while (0)

static int g_callbacks = 0;
static int g_records = 0;
static int g_bad_records = 0;

void api_callback(uint32_t domain, uint32_t cid, const void* callback_data,
                  void* arg) {
  (void)arg;
  const roctx_api_data_t* data =
      reinterpret_cast<const roctx_api_data_t*>(callback_data);
  ++g_callbacks;
  fprintf(stdout, "<%s id(%u) message(%s)>\n",
          roctracer_op_string(domain, cid, 0), cid,
          data->args.message ? data->args.message : "");
}

void activity_callback(const char* begin, const char* end, void* arg) {
  (void)arg;
  const roctracer_record_t* record =
      reinterpret_cast<const roctracer_record_t*>(begin);
  const roctracer_record_t* end_record =
      reinterpret_cast<const roctracer_record_t*>(end);
  fprintf(stdout, "\tActivity records:\n");
  while (record < end_record) {
    const char* name = roctracer_op_string(record->domain, record->op, 0);
    fprintf(stdout, "\t%s\tcorrelation_id(%lu) time_ns(%lu:%lu) tid(%u)", name,
            record->correlation_id, record->begin_ns, record->end_ns,
            record->thread_id);
    if (record->domain == ACTIVITY_DOMAIN_ROCTX && record->mark_message)
      fprintf(stdout, " message(%s)", record->mark_message);
    fprintf(stdout, "\n");
    ++g_records;
    if (name == nullptr || record->begin_ns == 0) ++g_bad_records;
    ROCTRACER_CALL(roctracer_next_record(record, &record));
  }
}

void start_tracing() {
  std::cout << "# START #############################" << std::endl;
  roctracer_properties_t properties{};
  properties.buffer_size = 0x1000;
  properties.buffer_callback_fun = activity_callback;
  ROCTRACER_CALL(roctracer_open_pool(&properties));
  ROCTRACER_CALL(roctracer_enable_callback(api_callback, NULL));
  ROCTRACER_CALL(roctracer_enable_activity());
}

void stop_tracing() {
  ROCTRACER_CALL(roctracer_disable_callback());
  ROCTRACER_CALL(roctracer_disable_activity());
  ROCTRACER_CALL(roctracer_close_pool());
  std::cout << "# STOP  #############################" << std::endl;
}

int main() {
  constexpr int kIterations = 3;
  for (int i = 0; i < kIterations; ++i) {
    start_tracing();
    roctxRangePush("iteration");
    roctxMark("hipMalloc would go here");
    roctx_range_id_t copy = roctxRangeStart("hipMemcpy");
    roctxRangeStop(copy);
    roctxRangePop();
    stop_tracing();
    roctxMark("not traced");  // after stop_tracing: nobody listens
  }
  // Per iteration: push, mark, start, stop, pop.
  const int expected = kIterations * 5;
  printf("callbacks %d records %d (expected %d each), bad %d\n", g_callbacks,
         g_records, expected, g_bad_records);
  return g_callbacks == expected && g_records == expected && g_bad_records == 0
             ? 0
             : 1;
}
