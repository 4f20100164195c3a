// The public data headers have the same layout in C99 and C++, so a C tool
// and the C++ runtime agree on every offset.
#include "tests/codegen/c99_headers.h"

#include <gtest/gtest.h>

#include <cstddef>

#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "kfd_api_data.h"

TEST(C99Headers, LayoutMatchesCxx) {
  const c_layout c = c99_layout();
  EXPECT_EQ(sizeof(hsa_api_data_t), c.hsa_size);
  EXPECT_EQ(offsetof(hsa_api_data_t, args), c.hsa_args_offset);
  EXPECT_EQ(offsetof(hsa_api_data_t, phase_data), c.hsa_phase_data_offset);
  EXPECT_EQ(sizeof(hip_api_data_t), c.hip_size);
  EXPECT_EQ(offsetof(hip_api_data_t, args), c.hip_args_offset);
  EXPECT_EQ(offsetof(hip_api_data_t, phase_data), c.hip_phase_data_offset);
  EXPECT_EQ(static_cast<unsigned>(HSA_API_ID_NUMBER), c.hsa_number);
  EXPECT_EQ(static_cast<unsigned>(HIP_API_ID_NUMBER), c.hip_number);
  EXPECT_EQ(static_cast<unsigned>(HIP_API_ID_hipMalloc), c.hip_malloc);
  EXPECT_EQ(sizeof(kfd_api_data_t), c.kfd_size);
  EXPECT_EQ(offsetof(kfd_api_data_t, args), c.kfd_args_offset);
  EXPECT_EQ(offsetof(kfd_api_data_t, phase_data), c.kfd_phase_data_offset);
  EXPECT_EQ(offsetof(kfd_api_data_t, args.hsaKmtCreateQueue.Event),
            c.kfd_create_queue_event_offset);
  EXPECT_EQ(static_cast<unsigned>(KFD_API_ID_NUMBER), c.kfd_number);
}

// roctracer's kfd_api_data_t (kfdap.py): correlation_id, phase, the retval
// union, then `args` with one member per API in ID order, arguments in
// prototype order (arrays as pointers), an empty member for APIs without
// parameters. phase_data, ours, comes after it.
TEST(C99Headers, KfdLayoutIsRoctracers) {
  EXPECT_EQ(offsetof(kfd_api_data_t, HSAKMT_STATUS_retval), 12u);
  EXPECT_EQ(offsetof(kfd_api_data_t, args), 16u);
  kfd_api_data_t d{};
  EXPECT_EQ(sizeof(d.args.hsaKmtOpenKFD), 1u);  // empty (size 1 in C++)
  EXPECT_LT(offsetof(kfd_api_data_t, args.hsaKmtCreateQueue.NodeId),
            offsetof(kfd_api_data_t, args.hsaKmtCreateQueue.Type));
  EXPECT_LT(offsetof(kfd_api_data_t, args.hsaKmtCreateQueue.Event),
            offsetof(kfd_api_data_t, args.hsaKmtCreateQueue.QueueResource));
  EXPECT_GE(offsetof(kfd_api_data_t, phase_data),
            offsetof(kfd_api_data_t, args) + sizeof(d.args));
}
