// HIP_OPS records of a HIP program: the stand-in HIP library
// (standin_hip/, HIP's entry points on the HSA API) runs on softhsa with
// libroctracer64.so.4 as the HSA tool, and the tracer's HIP stubs forward to
// it as they would to libamdhip64. Every dispatch, copy and barrier a traced
// HIP call submits gives one HIP_OPS record with that call's correlation ID
// and the command type HIP names it by.
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>
#include <roctracer_hip.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/gpu/gpu_test_util.h"

namespace {

using gpu_test::Record;
using gpu_test::Records;

constexpr char kScale[] =
    "_ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj";
constexpr char kScaleName[] =
    "gputest::scale(void const*, hsa_kernel_dispatch_packet_s const*, "
    "unsigned int, unsigned int, unsigned int)";

uint32_t HipApiOp(const char* name) {
  uint32_t op = 0;
  EXPECT_EQ(roctracer_op_code(ACTIVITY_DOMAIN_HIP_API, name, &op, nullptr),
            ROCTRACER_STATUS_SUCCESS)
      << name;
  return op;
}

class HipOps : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(program_.Start());
    ASSERT_EQ(gpu_test::OpenPool(&records_, &pool_), ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(hipModuleLoad(&module_, gpu_test::kKernels), hipSuccess);
    ASSERT_EQ(hipModuleGetFunction(&empty_, module_, "empty"), hipSuccess);
    ASSERT_EQ(hipModuleGetFunction(&scale_, module_, kScale), hipSuccess);
  }
  void TearDown() override {
    roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_API);
    roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_OPS);
    roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_OPS);
    roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_API);
    if (pool_ != nullptr) roctracer_close_pool_expl(pool_);
    if (module_ != nullptr) {
      EXPECT_EQ(hipModuleUnload(module_), hipSuccess);
    }
    program_.Stop();
  }
  void Enable(activity_domain_t domain) {
    ASSERT_EQ(roctracer_enable_domain_activity_expl(domain, pool_),
              ROCTRACER_STATUS_SUCCESS);
  }
  hipError_t Launch(hipFunction_t f, void* arg) {
    size_t size = sizeof(arg);
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &arg,
                     HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
    return hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                                 extra);
  }
  // One round of the program: 2 launches, a fill, a synchronize, and the
  // three synchronous copies.
  void Round(std::vector<char>* host, std::vector<char>* device) {
    ASSERT_EQ(Launch(empty_, nullptr), hipSuccess);
    ASSERT_EQ(Launch(scale_, nullptr), hipSuccess);
    ASSERT_EQ(hipMemsetAsync(device->data(), 7, 3000, nullptr), hipSuccess);
    ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
    EXPECT_EQ((*device)[2999], 7);
    ASSERT_EQ(
        hipMemcpy(device->data(), host->data(), 1000, hipMemcpyHostToDevice),
        hipSuccess);
    ASSERT_EQ(
        hipMemcpy(host->data(), device->data(), 2000, hipMemcpyDeviceToHost),
        hipSuccess);
    ASSERT_EQ(hipMemcpy(device->data() + 3000, device->data(), 3000,
                        hipMemcpyDeviceToDevice),
              hipSuccess);
  }

  gpu_test::Program program_;
  Records records_;
  roctracer_pool_t* pool_ = nullptr;
  hipModule_t module_ = nullptr;
  hipFunction_t empty_ = nullptr;
  hipFunction_t scale_ = nullptr;
};

// What each HIP call's device work must look like.
struct Expected {
  uint32_t op;
  uint32_t kind;
  const char* kind_name;
  uint64_t bytes;  // copies; 0: not checked
};

TEST_F(HipOps, OneRecordPerOperationWithTheHipCallsIdAndKind) {
  Enable(ACTIVITY_DOMAIN_HIP_API);
  Enable(ACTIVITY_DOMAIN_HIP_OPS);
  std::vector<char> host(6000, 'h'), device(6000, 'd');
  constexpr int kRounds = 3;
  for (int i = 0; i < kRounds; ++i) Round(&host, &device);
  EXPECT_EQ(host[999], 'h');
  EXPECT_EQ(device[3999], 'h');  // the device-to-device copy of the first 1000
  ASSERT_EQ(roctracer_flush_activity_expl(pool_), ROCTRACER_STATUS_SUCCESS);

  const uint32_t launch = HipApiOp("hipModuleLaunchKernel");
  const uint32_t fill = HipApiOp("hipMemsetAsync");
  const uint32_t sync = HipApiOp("hipDeviceSynchronize");
  const uint32_t copy = HipApiOp("hipMemcpy");
  std::map<uint64_t, Record> calls;  // HIP_API records by correlation ID
  for (uint32_t op : {launch, fill, sync, copy}) {
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HIP_API, op)) {
      calls[c.r.correlation_id] = c;
    }
  }
  ASSERT_EQ(calls.size(), size_t{kRounds * 7});

  auto dispatches = records_.Of(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_DISPATCH);
  auto copies = records_.Of(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY);
  auto barriers = records_.Of(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_BARRIER);
  // Records written by different threads (the completion thread, the flush)
  // reach the buffer in no set order; the calls' IDs, increasing along this
  // one submitting thread, give the launch order the kernel names follow.
  std::sort(dispatches.begin(), dispatches.end(),
            [](const Record& a, const Record& b) {
              return a.r.correlation_id < b.r.correlation_id;
            });
  EXPECT_EQ(dispatches.size(), size_t{kRounds * 2});
  EXPECT_EQ(copies.size(), size_t{kRounds * 4});  // a fill, three copies
  EXPECT_EQ(barriers.size(), size_t{kRounds * 1});

  std::map<uint64_t, int> ops_per_call;
  std::vector<std::string> kernels;
  std::set<uint64_t> packet_queues;
  for (auto* list : {&dispatches, &copies, &barriers}) {
    for (const Record& c : *list) {
      auto call = calls.find(c.r.correlation_id);
      ASSERT_NE(call, calls.end()) << "no HIP call with the record's ID";
      ++ops_per_call[c.r.correlation_id];
      const Record& api = call->second;
      Expected e{};
      if (api.r.op == launch) {
        e = {HIP_OP_ID_DISPATCH, 0x11F0, "KernelExecution", 0};
        kernels.push_back(c.name);
      } else if (api.r.op == fill) {
        e = {HIP_OP_ID_COPY, 0x1207, "FillBuffer", 0};
      } else if (api.r.op == sync) {
        e = {HIP_OP_ID_BARRIER, 0x11FE, "Marker", 0};
      } else {
        ASSERT_EQ(api.r.op, copy);
        e = {HIP_OP_ID_COPY, 0, nullptr, c.r.bytes};
        if (c.r.bytes == 1000)
          e = {HIP_OP_ID_COPY, 0x11F4, "CopyHostToDevice", 1000};
        if (c.r.bytes == 2000)
          e = {HIP_OP_ID_COPY, 0x11F3, "CopyDeviceToHost", 2000};
        if (c.r.bytes == 3000)
          e = {HIP_OP_ID_COPY, 0x11F5, "CopyDeviceToDevice", 3000};
        ASSERT_NE(e.kind_name, nullptr) << c.r.bytes;
      }
      EXPECT_EQ(c.r.op, e.op);
      EXPECT_EQ(c.r.kind, e.kind);
      EXPECT_STREQ(
          roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, c.r.op, c.r.kind),
          e.kind_name);
      EXPECT_LE(c.r.begin_ns, c.r.end_ns);
      EXPECT_LE(api.r.begin_ns, c.r.begin_ns);  // submitted inside the call
      EXPECT_EQ(c.r.device_id, 0);
      if (api.r.op == copy || api.r.op == sync) {
        // Synchronous: the work lies inside the call.
        EXPECT_LE(c.r.end_ns, api.r.end_ns);
      }
      // Packets ran on the stand-in's one queue; copies name none.
      if (c.r.op != HIP_OP_ID_COPY || api.r.op == fill) {
        packet_queues.insert(c.r.queue_id);
      } else {
        EXPECT_EQ(c.r.queue_id, 0u);
      }
    }
  }
  EXPECT_EQ(packet_queues.size(), 1u);
  for (const auto& [id, n] : ops_per_call) EXPECT_EQ(n, 1) << id;
  EXPECT_EQ(ops_per_call.size(), calls.size());  // every call submitted one
  ASSERT_EQ(kernels.size(), size_t{kRounds * 2});
  for (int i = 0; i < kRounds; ++i) {
    EXPECT_EQ(kernels[2 * i], "empty");
    EXPECT_EQ(kernels[2 * i + 1], kScaleName);
  }
}

// Both domains enabled: an HSA_OPS record for every packet and copy (with
// the innermost traced call's ID, here the HIP call's), and a HIP_OPS record
// for the same operation with the same times. With HSA calls traced as well,
// HSA_OPS follows the innermost call (the doorbell store, the copy call)
// while HIP_OPS keeps the HIP call's ID.
TEST_F(HipOps, HsaOpsAndHipOpsDescribeTheSameOperations) {
  Enable(ACTIVITY_DOMAIN_HIP_API);
  Enable(ACTIVITY_DOMAIN_HIP_OPS);
  Enable(ACTIVITY_DOMAIN_HSA_OPS);
  std::vector<char> host(6000, 'h'), device(6000, 'd');
  Round(&host, &device);
  roctracer_flush_activity_expl(pool_);
  std::map<std::pair<uint64_t, uint64_t>, Record> hip_ops;  // by times
  for (uint32_t op : {HIP_OP_ID_DISPATCH, HIP_OP_ID_COPY, HIP_OP_ID_BARRIER}) {
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HIP_OPS, op)) {
      hip_ops[{c.r.begin_ns, c.r.end_ns}] = c;
    }
  }
  size_t hsa_count = 0;
  for (uint32_t op : {HSA_OP_ID_DISPATCH, HSA_OP_ID_COPY, HSA_OP_ID_BARRIER}) {
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HSA_OPS, op)) {
      ++hsa_count;
      auto it = hip_ops.find({c.r.begin_ns, c.r.end_ns});
      ASSERT_NE(it, hip_ops.end());
      EXPECT_EQ(c.r.correlation_id, it->second.r.correlation_id);
      EXPECT_EQ(c.r.device_id, it->second.r.device_id);
      EXPECT_EQ(c.r.queue_id, it->second.r.queue_id);
      if (op == HSA_OP_ID_DISPATCH && it->second.r.op == HIP_OP_ID_DISPATCH) {
        EXPECT_EQ(c.name, it->second.name);
      }
    }
  }
  EXPECT_EQ(hsa_count, 7u);
  EXPECT_EQ(hip_ops.size(), 7u);

  // HSA calls traced too.
  records_.Clear();
  Enable(ACTIVITY_DOMAIN_HSA_API);
  Round(&host, &device);
  roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_API);
  roctracer_flush_activity_expl(pool_);
  std::map<uint64_t, uint32_t> hip_calls, hsa_calls;  // ID -> op
  for (uint32_t op = 0; op < 1000; ++op) {
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HIP_API, op)) {
      hip_calls[c.r.correlation_id] = op;
    }
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HSA_API, op)) {
      hsa_calls[c.r.correlation_id] = op;
    }
  }
  size_t hip_n = 0, hsa_n = 0;
  for (uint32_t op : {0u, 1u, 2u}) {
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HIP_OPS, op)) {
      ++hip_n;
      EXPECT_EQ(hip_calls.count(c.r.correlation_id), 1u);
    }
    for (const Record& c : records_.Of(ACTIVITY_DOMAIN_HSA_OPS, op)) {
      ++hsa_n;
      EXPECT_EQ(hsa_calls.count(c.r.correlation_id), 1u);
    }
  }
  EXPECT_EQ(hip_n, 7u);
  EXPECT_EQ(hsa_n, 7u);
}

// HIP_OPS off: no records, whatever else is traced; HIP_OPS on without the
// HIP call traced: the tracer does not know the call, no record (README).
TEST_F(HipOps, NoRecordsWithoutHipOpsOrWithoutTheHipCallTraced) {
  Enable(ACTIVITY_DOMAIN_HIP_API);
  std::vector<char> host(6000, 'h'), device(6000, 'd');
  Round(&host, &device);
  roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_API);
  Enable(ACTIVITY_DOMAIN_HIP_OPS);
  Round(&host, &device);
  roctracer_flush_activity_expl(pool_);
  for (uint32_t op : {0u, 1u, 2u}) {
    EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HIP_OPS, op), 0u) << op;
  }
  EXPECT_EQ(
      records_.Count(ACTIVITY_DOMAIN_HIP_API, HipApiOp("hipDeviceSynchronize")),
      1u);
}

// Run with SOFTHSA_FAULTS=copy_error=2 (hip_ops_faults_test): the second
// copy fails. It gets no record, in either domain, and is counted; the
// tracer's note of it is released (LeakSanitizer checks under ASan).
TEST_F(HipOps, FailedCopyGivesNoRecord) {
  const char* faults = std::getenv("SOFTHSA_FAULTS");
  ASSERT_NE(faults, nullptr);
  ASSERT_STREQ(faults, "copy_error=2");
  Enable(ACTIVITY_DOMAIN_HIP_API);
  Enable(ACTIVITY_DOMAIN_HIP_OPS);
  Enable(ACTIVITY_DOMAIN_HSA_OPS);
  const uint64_t failed = gpu_test::GpuStats().failed_copies;
  std::vector<char> host(100, 'h'), device(100, 'd');
  EXPECT_EQ(hipMemcpy(device.data(), host.data(), 100, hipMemcpyHostToDevice),
            hipSuccess);
  EXPECT_NE(hipMemcpy(device.data(), host.data(), 100, hipMemcpyHostToDevice),
            hipSuccess);
  EXPECT_EQ(hipMemcpy(device.data(), host.data(), 100, hipMemcpyHostToDevice),
            hipSuccess);
  roctracer_flush_activity_expl(pool_);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HIP_API, HipApiOp("hipMemcpy")), 3u);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY), 2u);
  EXPECT_EQ(records_.Count(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY), 2u);
  EXPECT_EQ(gpu_test::GpuStats().failed_copies, failed + 1);
}

}  // namespace
