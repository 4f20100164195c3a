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
  EXPECT_EQ(offsetof(kfd_api_data_t, phase_data), c.kfd_phase_data_offset);
  EXPECT_EQ(static_cast<unsigned>(KFD_API_ID_NUMBER), c.kfd_number);
}
