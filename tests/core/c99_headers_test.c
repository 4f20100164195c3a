/* The public headers are C99: this file is compiled with -std=c99 -Wall
 * -Wextra -Werror, and checks the few facts a C user relies on. */
#include <roctracer.h>
#include <roctracer/roctracer_ext.h>
#include <roctracer_roctx.h>
#include <roctx.h>
#include <stddef.h>
#include <stdio.h>

#include <ext/prof_protocol.h>

int main(void) {
  int failures = 0;
  if (sizeof(activity_record_t) != 64) {
    printf("activity_record_t is %zu bytes\n", sizeof(activity_record_t));
    ++failures;
  }
  if (ACTIVITY_DOMAIN_HIP_API != 3 || ACTIVITY_DOMAIN_HIP_OPS != 2 ||
      ACTIVITY_DOMAIN_NUMBER != 8) {
    printf("domain values differ from roctracer 4.1\n");
    ++failures;
  }
  if (ROCTRACER_STATUS_BAD_PARAMETER !=
      ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT) {
    printf("deprecated alias broken\n");
    ++failures;
  }
  if (offsetof(roctx_api_data_t, args.roctxRangeStartA.id) != 8) {
    printf("roctx_api_data_t layout differs\n");
    ++failures;
  }
  return failures;
}
