// The timeline's per-call encoding: what a slice costs in bytes, and that
// every event's name iid reads back as its name on its own sequence (name
// iids are numbered per sequence, in first-use order).
#include "roctrace/writers/pftrace_writer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "roctrace/tests/scratch_dir.h"

namespace roctrace {
namespace {

struct Field {
  uint32_t number;
  uint64_t value;     // varints and fixed64
  std::string bytes;  // length-delimited
};

uint64_t Varint(const std::string& b, size_t* i) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<uint8_t>(b.at((*i)++));
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return v;
  }
}

std::vector<Field> Fields(const std::string& b) {
  std::vector<Field> out;
  for (size_t i = 0; i < b.size();) {
    const uint64_t key = Varint(b, &i);
    Field f{static_cast<uint32_t>(key >> 3), 0, {}};
    switch (key & 7) {
      case 0:
        f.value = Varint(b, &i);
        break;
      case 1:
        for (int k = 0; k < 8; ++k) {
          f.value |= static_cast<uint64_t>(static_cast<uint8_t>(b.at(i++)))
                     << (8 * k);
        }
        break;
      case 2: {
        const size_t n = Varint(b, &i);
        f.bytes = b.substr(i, n);
        EXPECT_EQ(f.bytes.size(), n) << "truncated field " << f.number;
        i += n;
        break;
      }
      default:
        ADD_FAILURE() << "wire type " << (key & 7);
        return out;
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Writes `calls` slices per thread, threads taking turns in runs of 16,
// each thread calling its own two names; returns the file.
std::string Trace(const std::string& dir, int calls,
                  const std::vector<OpName>& names) {
  const std::string prefix = dir + "/t" + std::to_string(calls);
  PftraceWriter writer(prefix, RunInfo{}, 0);
  uint64_t ts[2] = {1'000'000'000, 2'000'000'000};
  for (int i = 0; i < 2 * calls; ++i) {
    const int thread = (i / 16) % 2;
    ApiEvent e{};
    e.op = &names[static_cast<size_t>(2 * thread + (i % 3 == 0))];
    e.pid = 10;
    e.tid = 10 + static_cast<uint32_t>(thread);
    e.correlation_id = 1'000 + static_cast<uint64_t>(i);  // two bytes
    e.start_ns = ts[thread] + 100;                        // gaps < 128 ns
    e.end_ns = e.start_ns + 60;
    ts[thread] = e.end_ns;
    writer.Write(e);
  }
  writer.Finish(RunInfo{});
  return Read(prefix + "_results.pftrace");
}

TEST(PftraceWriter, NamesOfAnyIndexCostOneByteAndReadBack) {
  const ScratchDir dir("pftrace_writer_test");
  // Name indices past 127 (a process that made many names): each thread's
  // first names still get one-byte iids.
  std::vector<OpName> names = {
      {Category::kHip, "hipGetErrorString", "HIP_RUNTIME_API", 300},
      {Category::kHip, "hipGetLastError", "HIP_RUNTIME_API", 301},
      {Category::kHsa, "hsa_system_get_info", "HSA_CORE_API", 5000},
      {Category::kHip, "hipGetErrorString", "HIP_RUNTIME_API", 300},
  };
  const std::string small = Trace(dir.path(), 1'000, names);
  const std::string large = Trace(dir.path(), 2'000, names);
  // A slice: a begin packet of 23 bytes (one-byte deltas and name iid, a
  // two-byte correlation ID, the sequence flags) and an end packet of 12.
  EXPECT_EQ(large.size() - small.size(), 2 * 1'000 * 35u);

  // Every event's name iid names the event's name on its sequence.
  std::map<std::pair<uint64_t, uint64_t>, std::string> interned;
  std::map<std::string, int> begins;
  std::set<uint64_t> cleared;  // sequences whose state was started
  for (const Field& packet : Fields(large)) {
    ASSERT_EQ(packet.number, 1u);
    uint64_t sequence = 0;
    uint64_t flags = 0;
    bool event = false;
    std::vector<Field> fields = Fields(packet.bytes);
    for (const Field& f : fields) {
      if (f.number == 10) sequence = f.value;
      if (f.number == 13) flags = f.value;  // sequence_flags
      if (f.number == 11) event = true;
    }
    // SEQ_INCREMENTAL_STATE_CLEARED (1) starts a sequence's state before any
    // packet that reads it; each event packet reads it (interned iids, the
    // defaults' track and clock) and says so: SEQ_NEEDS_INCREMENTAL_STATE
    // (2).
    if (flags & 1) cleared.insert(sequence);
    if (event) {
      EXPECT_EQ(flags, 2u) << "sequence " << sequence;
      EXPECT_EQ(cleared.count(sequence), 1u) << "sequence " << sequence;
    }
    for (const Field& f : fields) {
      if (f.number == 12) {  // interned_data
        for (const Field& entry : Fields(f.bytes)) {
          if (entry.number != 2) continue;  // event_names
          uint64_t iid = 0;
          std::string name;
          for (const Field& g : Fields(entry.bytes)) {
            if (g.number == 1) iid = g.value;
            if (g.number == 2) name = g.bytes;
          }
          EXPECT_LT(iid, 128u) << name;
          EXPECT_TRUE(
              interned.emplace(std::make_pair(sequence, iid), name).second)
              << "iid " << iid << " given twice on sequence " << sequence;
        }
      } else if (f.number == 11) {  // track_event
        for (const Field& g : Fields(f.bytes)) {
          if (g.number != 10) continue;  // name_iid
          auto it = interned.find({sequence, g.value});
          ASSERT_NE(it, interned.end()) << "iid " << g.value;
          ++begins[it->second];
        }
      }
    }
  }
  // Each thread calls its second name every third call: thread 0
  // hipGetLastError, thread 1 hipGetErrorString (also thread 0's first).
  EXPECT_EQ(begins["hipGetLastError"] + begins["hsa_system_get_info"] +
                begins["hipGetErrorString"],
            2 * 2'000);
  EXPECT_NEAR(begins["hipGetLastError"], 2'000 / 3, 16);
  EXPECT_NEAR(begins["hsa_system_get_info"], 2'000 * 2 / 3, 16);
}

}  // namespace
}  // namespace roctrace
