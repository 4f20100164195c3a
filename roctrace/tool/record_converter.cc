#include "roctrace/tool/record_converter.h"

#include <roctracer_roctx.h>

namespace roctrace {

const char* HsaDomainOf(const std::string& name) {
  if (name.compare(0, 8, "hsa_amd_") == 0) return "HSA_AMD_EXT_API";
  if (name.compare(0, 14, "hsa_ext_image_") == 0 ||
      name.compare(0, 16, "hsa_ext_sampler_") == 0) {
    return "HSA_IMAGE_EXT_API";
  }
  if (name.compare(0, 16, "hsa_ext_program_") == 0) {
    return "HSA_FINALIZE_EXT_API";
  }
  return "HSA_CORE_API";
}

const OpName* RecordConverter::ApiName(uint32_t domain, uint32_t op) {
  auto& names = api_names_[domain];
  // Real operation IDs are small and dense: a vector. Anything else (a
  // corrupt record) goes to a map rather than growing the vector.
  constexpr uint32_t kDense = 4096;
  std::unique_ptr<OpName>* slot;
  if (op < kDense) {
    if (op < names.size() && names[op] != nullptr) return names[op].get();
    if (op >= names.size()) names.resize(op + 1);
    slot = &names[op];
  } else {
    slot = &sparse_names_[(static_cast<uint64_t>(domain) << 32) | op];
    if (*slot != nullptr) return slot->get();
  }
  auto name = std::make_unique<OpName>();
  name->index = next_index_++;
  const char* text = roctracer_op_string(domain, op, 0);
  if (text == nullptr) {
    ++unresolved_names_;
    text = "";
  }
  name->name = *text != '\0' ? text : "unknown_op_" + std::to_string(op);
  if (domain == ACTIVITY_DOMAIN_HIP_API) {
    name->category = Category::kHip;
    name->domain = "HIP_RUNTIME_API";
  } else if (domain == ACTIVITY_DOMAIN_KFD_API) {
    // The layer below HSA: written with the HSA calls (their files and
    // tables), its own Domain column.
    name->category = Category::kHsa;
    name->domain = "KFD_API";
  } else {
    name->category = Category::kHsa;
    name->domain = HsaDomainOf(name->name);
  }
  *slot = std::move(name);
  return slot->get();
}

const OpName* RecordConverter::MarkerName(const char* message) {
  std::string text = message != nullptr ? message : "";
  auto it = marker_names_.find(text);
  if (it != marker_names_.end()) return it->second.get();
  auto name = std::make_unique<OpName>();
  name->index = next_index_++;
  name->category = Category::kMarker;
  name->name = text;
  name->domain = "MARKER_CORE_API";
  const OpName* result = name.get();
  marker_names_.emplace(text, std::move(name));
  return result;
}

uint64_t RecordConverter::open_ranges() const {
  uint64_t n = started_.size();
  for (const auto& kv : pushed_) n += kv.second.size();
  return n;
}

void RecordConverter::Convert(const activity_record_t& r) {
  ApiEvent e{};
  e.pid = r.process_id;
  e.tid = r.thread_id;
  e.correlation_id = r.correlation_id;
  switch (r.domain) {
    case ACTIVITY_DOMAIN_HIP_API:
    case ACTIVITY_DOMAIN_HSA_API:
    case ACTIVITY_DOMAIN_KFD_API:
      e.op = ApiName(r.domain, r.op);
      e.start_ns = r.begin_ns;
      e.end_ns = r.end_ns;
      sink_(e);
      return;
    case ACTIVITY_DOMAIN_ROCTX:
      break;
    default:
      return;  // EXT_API tags and device records: not written yet
  }
  switch (r.op) {
    case ROCTX_API_ID_roctxMarkA:
      e.op = MarkerName(r.mark_message);
      e.start_ns = e.end_ns = r.begin_ns;
      e.instant = true;
      sink_(e);
      return;
    case ROCTX_API_ID_roctxRangePushA:
      pushed_[r.thread_id].push_back(
          {MarkerName(r.mark_message), r.correlation_id, r.begin_ns});
      return;
    case ROCTX_API_ID_roctxRangeStartA:
      started_[r.correlation_id] = {MarkerName(r.mark_message),
                                    r.correlation_id, r.begin_ns};
      return;
    case ROCTX_API_ID_roctxRangePop: {
      auto it = pushed_.find(r.thread_id);
      if (it == pushed_.end() || it->second.empty()) {
        ++unmatched_range_ends_;
        return;
      }
      OpenRange open = it->second.back();
      it->second.pop_back();
      e.op = open.name;
      e.correlation_id = open.id;
      e.start_ns = open.start_ns;
      e.end_ns = r.begin_ns;
      sink_(e);
      return;
    }
    case ROCTX_API_ID_roctxRangeStop: {
      auto it = started_.find(r.correlation_id);
      if (it == started_.end()) {
        ++unmatched_range_ends_;
        return;
      }
      e.op = it->second.name;
      e.start_ns = it->second.start_ns;
      e.end_ns = r.begin_ns;
      e.async_range_id = r.correlation_id;
      started_.erase(it);
      sink_(e);
      return;
    }
    default:
      return;
  }
}

}  // namespace roctrace
