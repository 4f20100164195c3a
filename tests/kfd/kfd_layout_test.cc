// kfd_api_data_t as ROCm's roctracer laid it out, on the installed hsakmt.h
// (its members name 5.2.3's APIs).
#include <gtest/gtest.h>

#include <cstddef>

#include "kfd_api_data.h"
#include "kfd_api_id.h"

namespace {

// roctracer's kfd_api_data_t (kfdap.py): correlation_id, phase, the retval
// union, then `args` with one member per API in ID order, arguments in
// prototype order (arrays as pointers), an empty member for APIs without
// parameters. phase_data, ours, comes after it.
TEST(KfdLayout, IsRoctracers) {
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

TEST(KfdLayout, IdsInDeclarationOrder) {
  EXPECT_EQ(KFD_API_ID_hsaKmtOpenKFD, 0);
  EXPECT_EQ(KFD_API_ID_hsaKmtCloseKFD, 1);
  EXPECT_EQ(KFD_API_ID_hsaKmtGetVersion, 2);
  EXPECT_EQ(KFD_API_ID_NUMBER, KFD_API_ID_LAST + 1);
  EXPECT_EQ(KFD_API_ID_ANY, KFD_API_ID_NUMBER + 1);
}

}  // namespace
