// Returns the process-wide tracer state to "nothing enabled, no pool, started"
// between tests.
#ifndef TESTS_CORE_RESET_H_
#define TESTS_CORE_RESET_H_

#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer_ext.h>

#include <deque>

#include "tests/core/collector.h"

namespace roctracer_test {

class TracerTest : public ::testing::Test {
 protected:
  // Collectors outlive TearDown(), which closes the pools that call them.
  Collector& NewCollector() { return collectors_.emplace_back(); }

  void TearDown() override {
    roctracer_start();
    EXPECT_EQ(roctracer_disable_callback(), ROCTRACER_STATUS_SUCCESS);
    EXPECT_EQ(roctracer_disable_activity(), ROCTRACER_STATUS_SUCCESS);
    EXPECT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);
    activity_correlation_id_t id;
    while (roctracer_activity_pop_external_correlation_id(&id) ==
           ROCTRACER_STATUS_SUCCESS) {
    }
  }

 private:
  std::deque<Collector> collectors_;
};

}  // namespace roctracer_test

#endif  // TESTS_CORE_RESET_H_
