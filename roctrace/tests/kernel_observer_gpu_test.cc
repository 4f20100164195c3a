// roctrace's kernel observer registered through libroctracer64.so.4's
// private export in a program on softhsa (the tracer as its HSA tool), after
// the kernels were loaded: it still learns their symbols (LDS_Block_Size's
// source) and turns real dispatches into rows with their packets' sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "roctrace/tool/kernel_observer.h"
#include "runtime/private/observer_export.h"
#include "tests/gpu/gpu_test_util.h"

namespace {

TEST(KernelObserverOnSofthsa, LateRegistrationSeesLoadedSymbolsAndPackets) {
  gpu_test::Program p;
  ASSERT_TRUE(p.Start());
  // Registered after the executable was frozen.
  static auto* observer = new roctrace::KernelObserver;  // never destroyed
  ASSERT_TRUE(roctracer_internal_gpu_add_observer(
      roctracer::gpu::kObserverAbiVersion, observer));

  hsa_queue_t* q = p.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(2, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const uint64_t kernels[] = {p.scale, p.empty};
  for (uint32_t i = 0; i < 2; ++i) {
    hsa_kernel_dispatch_packet_t d =
        hsa_test::DispatchPacket(kernels[i], p.kernarg, 8 * (i + 1),
                                 static_cast<uint16_t>(4 * (i + 1)), done);
    d.setup = 2 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    d.workgroup_size_y = 2;
    d.grid_size_y = 6;
    d.group_segment_size = 256 * (i + 1);
    d.private_segment_size = 32 * (i + 1);
    hsa_test::Submit(q, &d);
  }
  gpu_test::WaitZero(done);
  // Destroying the queue reports what completed on it.
  hsa_queue_destroy(q);
  std::vector<roctrace::DispatchRow> rows = observer->Take();
  roctracer_internal_gpu_remove_observer(observer);
  hsa_signal_destroy(done);
  p.Stop();

  ASSERT_EQ(rows.size(), 2u);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.dispatch_id < b.dispatch_id;
  });
  EXPECT_EQ(rows[0].dispatch_id, 1u);
  EXPECT_EQ(rows[1].dispatch_id, 2u);
  for (uint32_t i = 0; i < 2; ++i) {
    const roctrace::KernelLaunch& l = rows[i].launch;
    EXPECT_EQ(
        (std::vector<uint32_t>{l.grid[0], l.grid[1], l.grid[2], l.workgroup[0],
                               l.workgroup[1], l.workgroup[2]}),
        (std::vector<uint32_t>{8 * (i + 1), 6, 1, 4 * (i + 1), 2, 1}))
        << i;
    EXPECT_EQ(l.group_segment_size, 256 * (i + 1));
    EXPECT_EQ(l.private_segment_size, 32 * (i + 1));
    EXPECT_LE(rows[i].begin_ns, rows[i].end_ns);
  }
  // scale's symbol reports 1000 bytes of LDS (gpu_kernels.cc), empty's none;
  // both were loaded before the observer was registered.
  EXPECT_EQ(rows[0].kernel_name,
            "gputest::scale(void const*, hsa_kernel_dispatch_packet_s const*, "
            "unsigned int, unsigned int, unsigned int)");
  EXPECT_TRUE(rows[0].launch.symbol_known);
  EXPECT_EQ(rows[0].launch.symbol_group_segment_size, 1000u);
  EXPECT_EQ(rows[1].kernel_name, "empty");
  EXPECT_TRUE(rows[1].launch.symbol_known);
  EXPECT_EQ(rows[1].launch.symbol_group_segment_size, 0u);
  // Their registers, read from the descriptors when they were loaded:
  // scale declares 104 VGPRs and 50 SGPRs (gfx90a: 104 + 0 in blocks of 8,
  // SGPRs in blocks of 16); empty declares none, the smallest allocation.
  const roctrace::KernelRegisterCounts& s = rows[0].registers;
  EXPECT_TRUE(s.known);
  EXPECT_EQ((std::vector<uint32_t>{s.arch_vgpr, s.accum_vgpr, s.sgpr}),
            (std::vector<uint32_t>{104, 0, 64}));
  const roctrace::KernelRegisterCounts& e = rows[1].registers;
  EXPECT_TRUE(e.known);
  EXPECT_EQ((std::vector<uint32_t>{e.arch_vgpr, e.accum_vgpr, e.sgpr}),
            (std::vector<uint32_t>{4, 4, 16}));
}

}  // namespace
