#include "runtime/gpu/runtime_table.h"

#include <algorithm>
#include <cstring>

namespace roctracer::gpu {
namespace {

CoreApiTable g_core;
AmdExtTable g_amd;

}  // namespace

const CoreApiTable& Core() noexcept { return g_core; }
const AmdExtTable& Amd() noexcept { return g_amd; }

bool CoreHasSlot(const HsaApiTable* table, size_t offset) noexcept {
  return table != nullptr && table->core_ != nullptr &&
         table->core_->version.minor_id >= offset + sizeof(void*) &&
         *reinterpret_cast<void* const*>(
             reinterpret_cast<const char*>(table->core_) + offset) != nullptr;
}

bool AmdHasSlot(const HsaApiTable* table, size_t offset) noexcept {
  return table != nullptr &&
         table->version.minor_id >=
             offsetof(HsaApiTable, amd_ext_) + sizeof(void*) &&
         table->amd_ext_ != nullptr &&
         table->amd_ext_->version.minor_id >= offset + sizeof(void*) &&
         *reinterpret_cast<void* const*>(
             reinterpret_cast<const char*>(table->amd_ext_) + offset) !=
             nullptr;
}

void SaveRuntimeTable(const HsaApiTable* table) noexcept {
  std::memset(&g_core, 0, sizeof(g_core));
  std::memset(&g_amd, 0, sizeof(g_amd));
  if (table == nullptr) return;
  if (table->core_ != nullptr) {
    std::memcpy(
        &g_core, table->core_,
        std::min<size_t>(sizeof(g_core), table->core_->version.minor_id));
  }
  if (table->version.minor_id >=
          offsetof(HsaApiTable, amd_ext_) + sizeof(void*) &&
      table->amd_ext_ != nullptr) {
    std::memcpy(
        &g_amd, table->amd_ext_,
        std::min<size_t>(sizeof(g_amd), table->amd_ext_->version.minor_id));
  }
}

}  // namespace roctracer::gpu
