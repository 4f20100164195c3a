/* A client of the KFD_API domain as users write one: includes what ROCm's
 * roctracer had for it and reads every part of kfd_api_data_t. Compiled by
 * kfd_trace_test.py with the system gcc (-std=c99) and g++, -Wall -Wextra
 * -Werror, outside Bazel. */
#include <kfd_prof_str.h>
#include <roctracer_kfd.h>
#include <stddef.h>
#include <stdio.h>

static void on_kfd(uint32_t domain, uint32_t op, const void* data, void* arg) {
  const kfd_api_data_t* d = (const kfd_api_data_t*)data;
  (void)arg;
  if (domain != ACTIVITY_DOMAIN_KFD_API) return;
  if (op == KFD_API_ID_hsaKmtGetVersion &&
      d->phase == ACTIVITY_API_PHASE_EXIT) {
    printf("%llu %d %p\n", (unsigned long long)d->correlation_id,
           (int)d->HSAKMT_STATUS_retval,
           (void*)d->args.hsaKmtGetVersion.VersionInfo);
  }
}

int main(void) {
  printf("%d %zu %zu\n", (int)KFD_API_ID_NUMBER, sizeof(kfd_api_data_t),
         offsetof(kfd_api_data_t, args));
  return roctracer_enable_domain_callback(ACTIVITY_DOMAIN_KFD_API, on_kfd,
                                          NULL) == ROCTRACER_STATUS_SUCCESS
             ? 0
             : 1;
}
