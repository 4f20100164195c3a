// Kernels for the softhsa tests, in softhsa's code object format: a host
// shared library whose exported functions are kernels.
#include <hsa/hsa.h>

#include <atomic>
#include <cstdint>

struct FillArgs {
  uint32_t* out;
  uint32_t base;
};

#define KERNEL extern "C" __attribute__((visibility("default"))) void
#define SIZE(name) \
  extern "C" __attribute__((visibility("default"))) const uint32_t name

// out[global id] = base + global id, for every work-item of the grid.
KERNEL fill(const void* kernarg, const hsa_kernel_dispatch_packet_t* p,
            uint32_t wx, uint32_t wy, uint32_t wz) {
  const auto* a = static_cast<const FillArgs*>(kernarg);
  for (uint32_t z = 0; z < p->workgroup_size_z; ++z) {
    for (uint32_t y = 0; y < p->workgroup_size_y; ++y) {
      for (uint32_t x = 0; x < p->workgroup_size_x; ++x) {
        uint64_t gx = uint64_t(wx) * p->workgroup_size_x + x;
        uint64_t gy = uint64_t(wy) * p->workgroup_size_y + y;
        uint64_t gz = uint64_t(wz) * p->workgroup_size_z + z;
        if (gx >= p->grid_size_x || gy >= p->grid_size_y ||
            gz >= p->grid_size_z) {
          continue;
        }
        uint64_t id = (gz * p->grid_size_y + gy) * p->grid_size_x + gx;
        a->out[id] = a->base + static_cast<uint32_t>(id);
      }
    }
  }
}
SIZE(softhsa_kernarg_size_fill) = sizeof(FillArgs);
SIZE(softhsa_group_segment_size_fill) = 256;
SIZE(softhsa_private_segment_size_fill) = 32;
// The registers a GPU compiler would have counted: softhsa encodes them in
// fill's kernel descriptor.
SIZE(softhsa_vgpr_count_fill) = 37;
SIZE(softhsa_accum_vgpr_count_fill) = 10;
SIZE(softhsa_sgpr_count_fill) = 20;

// Counts its workgroups in the uint64_t its kernarg points to.
KERNEL count_workgroups(const void* kernarg,
                        const hsa_kernel_dispatch_packet_t*, uint32_t, uint32_t,
                        uint32_t) {
  auto* counter = *static_cast<std::atomic<uint64_t>* const*>(kernarg);
  counter->fetch_add(1);
}
SIZE(softhsa_kernarg_size_count_workgroups) = sizeof(void*);

KERNEL empty(const void*, const hsa_kernel_dispatch_packet_t*, uint32_t,
             uint32_t, uint32_t) {}
