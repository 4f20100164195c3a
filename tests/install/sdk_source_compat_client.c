/* Source written against rocprofiler-sdk 1.0.0's headers, built by
 * install_test.sh with the system gcc (as C) and g++ (as C++), default
 * flags, against the install tree: the member-access expressions 1.0.0's
 * types allow compile here too and read the same bits.
 * - The agent's KFD unions (hsakmttypes.h's HSA_CAPABILITY, HSA_ENGINE_ID,
 *   HSA_ENGINE_VERSION, HsaCacheType, HSA_LINKPROPERTY, HSA_MEMORYPROPERTY)
 *   and enums (HSA_IOLINKTYPE, HSA_HEAPTYPE): a tool reads
 *   `agent->capability.ui32.WatchPointsSupported` or `.Value`.
 * - The return-value unions, with 1.0.0's member names and size whatever the
 *   HIP/HSA release, and the `no_args` member of a parameterless API. */
#include <rocprofiler-sdk/rocprofiler.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* What a tool's rocprofiler_query_available_agents callback reads. */
static void check_agent_fields(void) {
  rocprofiler_agent_v0_t agent;
  rocprofiler_agent_cache_t cache;
  rocprofiler_agent_io_link_t link;
  rocprofiler_agent_mem_bank_t bank;
  const rocprofiler_agent_v0_t* a = &agent;
  memset(&agent, 0, sizeof(agent));
  memset(&cache, 0, sizeof(cache));
  memset(&link, 0, sizeof(link));
  memset(&bank, 0, sizeof(bank));

  agent.capability.Value = (1u << 7) | (0xau << 8) | (2u << 12) | (1u << 29);
  check(a->capability.ui32.WatchPointsSupported == 1, "WatchPointsSupported");
  check(a->capability.ui32.WatchPointsTotalBits == 10, "WatchPointsTotalBits");
  check(a->capability.ui32.DoorbellType == 2, "DoorbellType");
  check(a->capability.ui32.DebugSupportedFirmware == 1,
        "DebugSupportedFirmware");
  check(a->capability.ui32.HotPluggable == 0, "HotPluggable");

  agent.fw_version.Value = 0x155u | (5u << 10) | (7u << 16) | (3u << 24);
  check(a->fw_version.ui32.uCode == 0x155, "fw_version uCode");
  check(a->fw_version.ui32.Major == 5, "fw_version Major");
  check(a->fw_version.ui32.Minor == 7, "fw_version Minor");
  check(a->fw_version.ui32.Stepping == 3, "fw_version Stepping");

  agent.sdma_fw_version.Value = 0x2aau | (0x11u << 10);
  check(a->sdma_fw_version.uCodeSDMA == 0x2aa, "sdma uCodeSDMA");
  check(a->sdma_fw_version.uCodeRes == 0x11, "sdma uCodeRes");

  cache.type.Value = 0x4u;
  check(cache.type.ui32.CPU == 1 && cache.type.ui32.Data == 0, "cache type");
  link.type = HSA_IOLINK_TYPE_XGMI;
  link.flags.LinkProperty = 1u << 3;
  check(link.flags.ui32.NoAtomics64bit == 1 && link.flags.ui32.Override == 0,
        "link flags");
  bank.heap_type = HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC;
  bank.flags.MemoryProperty = 0x2u;
  check(bank.flags.ui32.NonVolatile == 1 && bank.flags.ui32.HotPluggable == 0,
        "memory bank flags");

  agent.caches = &cache;
  agent.io_links = &link;
  agent.mem_banks = &bank;
  check(a->caches[0].type.ui32.CPU == 1 &&
            a->io_links[0].type == HSA_IOLINK_TYPE_XGMI &&
            a->mem_banks[0].heap_type == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC,
        "through the agent's arrays");
  /* 1.0.0's offsets of the union-typed fields. */
  check(offsetof(rocprofiler_agent_v0_t, capability) == 152 &&
            offsetof(rocprofiler_agent_cache_t, type) == 36 &&
            offsetof(rocprofiler_agent_io_link_t, flags) == 44 &&
            offsetof(rocprofiler_agent_mem_bank_t, flags) == 4,
        "offsets");
}

/* What a tool's callback reads of a HIP call's result (the payload is only
 * ever received through a pointer: in C++ its argument union, holding HIP's
 * dim3 by value, has no default constructor, as in 1.0.0). */
const char* hip_string_result(
    const rocprofiler_callback_tracing_hip_api_data_t* payload);
const char* hip_string_result(
    const rocprofiler_callback_tracing_hip_api_data_t* payload) {
  return payload->retval.const_charp_retval;
}

/* A parameterless HIP API's member. */
char hip_no_args(const rocprofiler_callback_tracing_hip_api_data_t* payload);
char hip_no_args(const rocprofiler_callback_tracing_hip_api_data_t* payload) {
  return payload->args.hipDeviceSynchronize.no_args.empty;
}

static void check_retvals(void) {
  rocprofiler_hip_api_retval_t hip;
  rocprofiler_callback_tracing_hsa_api_data_t hsa;
  const char* text = "no error";
  memset(&hip, 0, sizeof(hip));
  memset(&hsa, 0, sizeof(hsa));

  check(sizeof(rocprofiler_hip_api_retval_t) == 24, "HIP retval size");
  hip.const_charp_retval = text;
  check(hip.uint64_t_retval == (uint64_t)(uintptr_t)text,
        "const_charp_retval as uint64_t_retval");
  hip.voidpp_retval = (void**)&text;
  check(*hip.voidpp_retval == text, "voidpp_retval");
  hip.uint64_t_retval = 0;
  hip.hipError_t_retval = hipErrorInvalidValue;
  check(hip.int_retval == (int)hipErrorInvalidValue, "int_retval");
  hip.hipChannelFormatDesc_retval.x = 8;
  check(hip.hipChannelFormatDesc_retval.x == 8, "hipChannelFormatDesc_retval");
  check(offsetof(rocprofiler_callback_tracing_hip_api_data_t, retval) +
                sizeof(hip) ==
            sizeof(rocprofiler_callback_tracing_hip_api_data_t),
        "HIP payload ends with retval");

  check(sizeof(rocprofiler_hsa_api_retval_t) == 8, "HSA retval size");
  hsa.retval.hsa_signal_value_t_retval = -1;
  check(hsa.retval.uint64_t_retval == UINT64_MAX, "hsa_signal_value_t_retval");
  hsa.retval.uint64_t_retval = 0;
  hsa.retval.hsa_status_t_retval = HSA_STATUS_ERROR_NOT_INITIALIZED;
  check(hsa.retval.uint32_t_retval == 0x100bu, "hsa_status_t_retval");

  check(sizeof(rocprofiler_hsa_api_no_args) == 1 &&
            sizeof(rocprofiler_hip_api_no_args) == 1,
        "no_args size");
  hsa.args.hsa_init.no_args.empty = 1;
  hsa.args.hsa_shut_down.no_args.empty = 0;
  check(hsa.args.hsa_init.no_args.empty == 0, "no_args members share bytes");
}

int main(void) {
  check_agent_fields();
  check_retvals();
  printf("sdk_source_compat_client: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
