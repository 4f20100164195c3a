// --memory-allocation-trace's calls, from the call data the tool callback
// sees at EXIT to the rows rocpd files: memory pool allocations and frees,
// and virtual memory handles (hsa_amd_vmem_handle_create/_release) where
// the HSA headers built against have them (AMD extension interface 1.4 on;
// 5.2.3's have not: those tests are skipped there and run in the release
// matrix, tools/test_release.sh).
#include "roctrace/tool/memory_allocations.h"

#include <gtest/gtest.h>
#include <roctracer_hsa.h>

#include <string>
#include <vector>

#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tests/sqlite_rows.h"
#include "roctrace/tool/record_converter.h"
#include "roctrace/writers/rocpd_writer.h"

namespace roctrace {
namespace {

uint32_t Op(const char* name) {
  uint32_t op = UINT32_MAX;
  roctracer_op_code(ACTIVITY_DOMAIN_HSA_API, name, &op, nullptr);
  return op;
}

TEST(MemoryAllocations, PoolAllocationKeepsItsAddressAndSizeOnce) {
  MemoryAllocations calls;
  ASSERT_TRUE(calls.Start(nullptr));
  void* p = reinterpret_cast<void*>(0x7f0000001000);
  hsa_api_data_t d{};
  d.correlation_id = 7;
  d.hsa_status_t_retval = HSA_STATUS_SUCCESS;
  d.args.hsa_amd_memory_pool_allocate.memory_pool.handle = 42;
  d.args.hsa_amd_memory_pool_allocate.size = 4096;
  d.args.hsa_amd_memory_pool_allocate.ptr = &p;
  calls.OnCall(Op("hsa_amd_memory_pool_allocate"), &d);
  MemoryAllocations::Call call{};
  ASSERT_TRUE(calls.Take(7, &call));
  EXPECT_FALSE(call.free);
  EXPECT_FALSE(call.vmem);
  EXPECT_EQ(call.allocation.address, 0x7f0000001000u);
  EXPECT_EQ(call.allocation.size, 4096u);
  EXPECT_FALSE(calls.Take(7, &call));
}

TEST(MemoryAllocations, VirtualMemoryHandles) {
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
  const uint32_t create = Op("hsa_amd_vmem_handle_create");
  const uint32_t release = Op("hsa_amd_vmem_handle_release");
  ASSERT_NE(create, UINT32_MAX);
  ASSERT_NE(release, UINT32_MAX);
  MemoryAllocations calls;
  ASSERT_TRUE(calls.Start(nullptr));
  EXPECT_TRUE(
      MemoryAllocations::IsAllocationCall("hsa_amd_vmem_handle_create"));
  EXPECT_TRUE(
      MemoryAllocations::IsAllocationCall("hsa_amd_vmem_handle_release"));

  // A handle made: the handle (its memory's address), the size.
  hsa_amd_vmem_alloc_handle_t handle{0x7f0000200000};
  hsa_api_data_t d{};
  d.correlation_id = 1;
  d.hsa_status_t_retval = HSA_STATUS_SUCCESS;
  d.args.hsa_amd_vmem_handle_create.pool.handle = 42;
  d.args.hsa_amd_vmem_handle_create.size = 2 << 20;
  d.args.hsa_amd_vmem_handle_create.memory_handle = &handle;
  calls.OnCall(create, &d);
  // One refused: nothing was allocated, nothing is kept.
  d.correlation_id = 2;
  d.hsa_status_t_retval = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  calls.OnCall(create, &d);
  // The handle released: its address alone.
  hsa_api_data_t r{};
  r.correlation_id = 3;
  r.hsa_status_t_retval = HSA_STATUS_SUCCESS;
  r.args.hsa_amd_vmem_handle_release.memory_handle = handle;
  calls.OnCall(release, &r);

  MemoryAllocations::Call call{};
  ASSERT_TRUE(calls.Take(1, &call));
  EXPECT_TRUE(call.vmem);
  EXPECT_FALSE(call.free);
  EXPECT_EQ(call.allocation.address, 0x7f0000200000u);
  EXPECT_EQ(call.allocation.size, 2u << 20);
  EXPECT_FALSE(calls.Take(2, &call));
  ASSERT_TRUE(calls.Take(3, &call));
  EXPECT_TRUE(call.vmem);
  EXPECT_TRUE(call.free);
  EXPECT_EQ(call.allocation.address, 0x7f0000200000u);
  EXPECT_EQ(call.allocation.size, 0u);
  EXPECT_FALSE(call.allocation.has_agent);
#else
  EXPECT_EQ(Op("hsa_amd_vmem_handle_create"), UINT32_MAX);
  GTEST_SKIP() << "these HSA headers (AMD extension interface 1."
               << HSA_AMD_INTERFACE_VERSION_MINOR
               << ") have no virtual memory API";
#endif
}

// rocpd's rows, as rocprofv3 files the four operations: type ALLOC or FREE,
// level REAL for memory pool memory and VIRTUAL for a handle's.
TEST(MemoryAllocations, RocpdFilesEachOperationsTypeAndLevel) {
  ScratchDir dir("memory_allocations_test");
  const std::string path = dir / "run_results.db";
  RecordConverter names([](const ApiEvent&) {});
  {
    RunInfo info;
    info.pid = 1;
    RocpdWriter writer(path, info);
    uint64_t address = 0x1000;
    for (bool vmem : {false, true}) {
      for (bool free : {false, true}) {
        ApiEvent e{};
        e.op = names.MemoryAllocationName(free, vmem);
        e.correlation_id = address;
        e.start_ns = address;
        e.end_ns = address + 1;
        e.pid = 1;
        e.tid = 1;
        DeviceWork d{};
        d.device_id = -1;
        d.allocation.address = address;
        d.allocation.size = free ? 0 : 4096;
        e.device = &d;
        writer.Write(e);
        address += 0x1000;
      }
    }
    writer.Finish(info);
    ASSERT_TRUE(writer.ok());
  }
  const std::vector<std::string> rows =
      SqliteRows(path,
                 "SELECT type, level, address, size FROM "
                 "rocpd_memory_allocate ORDER BY address");
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "ALLOC|REAL|4096|4096", "FREE|REAL|8192|0",
                      "ALLOC|VIRTUAL|12288|4096", "FREE|VIRTUAL|16384|0"}));
  EXPECT_EQ(names.MemoryAllocationName(false, true)->name,
            "MEMORY_ALLOCATION_VMEM_ALLOCATE");
  EXPECT_EQ(names.MemoryAllocationName(true, true)->name,
            "MEMORY_ALLOCATION_VMEM_FREE");
}

}  // namespace
}  // namespace roctrace
