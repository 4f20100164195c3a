// Address ranges of loaded code objects and the table that finds which one
// holds an address (rocprofiler::sdk::codeobj::segment), with the interface
// rocprofiler-sdk 1.0.0 declares in <rocprofiler-sdk/cxx/codeobj/segment.hpp>.
// Header-only, C++17, no library needed.
#ifndef ROCPROFILER_SDK_CXX_CODEOBJ_SEGMENT_HPP_
#define ROCPROFILER_SDK_CXX_CODEOBJ_SEGMENT_HPP_

#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

// Not used here, but 1.0.0's header includes them and tools rely on them
// through it (its code_object_isa_decode sample uses std::unordered_set).
#include <algorithm>
#include <iostream>
#include <random>
#include <unordered_set>
#include <vector>

namespace rocprofiler {
namespace sdk {
namespace codeobj {
namespace segment {

// What a tool names a loaded code object by (its code_object_id).
using marker_id_t = size_t;

// [addr, addr + size) belonging to code object `id`. Two ranges compare
// equal when they overlap, so a std::set of disjoint ranges finds the range
// holding an address by looking up {address, 0, 0}.
struct address_range_t {
  uint64_t addr{0};
  uint64_t size{0};
  marker_id_t id{0};

  bool operator==(const address_range_t& other) const {
    return other.inrange(addr) || inrange(other.addr);
  }
  bool operator<(const address_range_t& other) const {
    return !(*this == other) && addr < other.addr;
  }
  bool inrange(uint64_t address) const {
    // Written as a difference so a range ending at 2^64 does not wrap.
    return address >= addr && address - addr < size;
  }
};

// The ranges of every loaded code object, ordered by address. The range
// last found is kept, as consecutive look-ups usually fall in one object.
class CodeobjTableTranslator : public std::set<address_range_t> {
 public:
  // The range holding `addr`; throws std::out_of_range when none does.
  address_range_t find_codeobj_in_range(uint64_t addr) {
    if (cached_segment.inrange(addr)) return cached_segment;
    auto found = find(address_range_t{addr, 0, 0});
    if (found == end() || !found->inrange(addr)) {
      throw std::out_of_range("no code object holds address " +
                              std::to_string(addr));
    }
    cached_segment = *found;
    return cached_segment;
  }

  void clear_cache() { cached_segment = address_range_t{}; }

  // Removes the range overlapping `range`; false when there is none.
  bool remove(const address_range_t& range) {
    clear_cache();
    return erase(range) != 0;
  }
  // Removes the range holding `addr`; false when there is none.
  bool remove(uint64_t addr) { return remove(address_range_t{addr, 0, 0}); }

 private:
  address_range_t cached_segment{};
};

}  // namespace segment
}  // namespace codeobj
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_CODEOBJ_SEGMENT_HPP_
