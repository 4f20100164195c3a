/* What the sample tool (sample_tool.c) observed, for the test drivers. */
#ifndef TESTS_SDK_SAMPLE_TOOL_H_
#define TESTS_SDK_SAMPLE_TOOL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sample_tool_seen_t {
  int initialized; /* initialize calls */
  int finalized;   /* finalize calls */
  int enters, exits;
  char last_kind[64];
  char last_op[64];
  char last_args[1024]; /* "type name=value; " per argument, at EXIT */
  int last_arg_count;
  uint64_t last_correlation_enter, last_correlation_exit;
  uint64_t last_user_at_exit;
  int32_t last_hsa_status; /* retval of the last HSA call at EXIT */
  const char* last_hip_string_retval;
} sample_tool_seen_t;

extern sample_tool_seen_t sample_tool_seen;

#ifdef __cplusplus
}
#endif

#endif /* TESTS_SDK_SAMPLE_TOOL_H_ */
