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
      {Category::kHip, "hipGetErrorString", "HIP_RUNTIME_API_EXT", 300},
      {Category::kHip, "hipGetLastError", "HIP_RUNTIME_API_EXT", 301},
      {Category::kHsa, "hsa_system_get_info", "HSA_CORE_API", 5000},
      {Category::kHip, "hipGetErrorString", "HIP_RUNTIME_API_EXT", 300},
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

// Every slice reads back as written whatever its values' sizes: names with
// one- and two-byte iids, correlation IDs of 1 to 10 bytes, gaps and
// durations of 1 to 9 bytes, calls with a flow among them, on sequences
// with one- and two-byte IDs (the 130th thread's).
TEST(PftraceWriter, SlicesReadBackWhateverTheirValuesSizes) {
  const ScratchDir dir("pftrace_writer_test");
  std::vector<OpName> names(200);
  for (uint32_t i = 0; i < names.size(); ++i) {
    names[i].category = i % 2 ? Category::kHip : Category::kHsa;
    names[i].name = "op" + std::to_string(i);
    names[i].domain = i % 2 ? "HIP_RUNTIME_API_EXT" : "HSA_CORE_API";
    names[i].index = i;
    names[i].submits_work = i % 7 == 0;
  }
  const std::string prefix = dir.path() + "/sizes";
  PftraceWriter writer(prefix, RunInfo{}, 0);
  struct Written {
    std::string name;
    uint64_t correlation_id, start_ns, end_ns;
  };
  std::map<uint32_t, std::vector<Written>> by_tid;
  const uint64_t ids[] = {1, 200, 70'000, 1ull << 35, ~0ull};
  const uint64_t steps[] = {1, 300, 100'000, 1ull << 40};
  std::map<uint32_t, uint64_t> clock;
  for (uint32_t i = 0; i < 6'000; ++i) {
    // Thread 100 + t: the first 130 threads' sequences, one event each;
    // then threads 100 and 229 (sequence 131) alternately.
    const uint32_t tid = i < 130 ? 100 + i : (i % 2 ? 100 : 229);
    ApiEvent e{};
    e.op = &names[(i * 37) % names.size()];
    e.pid = 7;
    e.tid = tid;
    e.correlation_id = ids[i % 5];
    uint64_t& t = clock.try_emplace(tid, 5'000'000'000ull).first->second;
    e.start_ns = t + steps[i % 4];
    e.end_ns = e.start_ns + steps[(i / 4) % 4];
    t = e.end_ns;
    writer.Write(e);
    by_tid[tid].push_back({e.op->name, e.correlation_id, e.start_ns, e.end_ns});
  }
  writer.Finish(RunInfo{});

  std::map<std::pair<uint64_t, uint64_t>, std::string> interned;
  std::map<uint64_t, uint64_t> sequence_clock;
  std::map<uint64_t, std::vector<Written>> read;  // by sequence
  std::map<uint64_t, size_t> open;                // a begin awaiting its end
  for (const Field& packet : Fields(Read(prefix + "_results.pftrace"))) {
    uint64_t sequence = 0;
    bool has_time = false;
    uint64_t time = 0;
    std::vector<Field> fields = Fields(packet.bytes);
    for (const Field& f : fields) {
      if (f.number == 10) sequence = f.value;
      if (f.number == 8) has_time = true, time = f.value;
    }
    for (const Field& f : fields) {
      if (f.number == 6) {  // clock_snapshot: the incremental clock's start
        for (const Field& c : Fields(f.bytes)) {
          uint64_t id = 0, value = 0;
          for (const Field& g : Fields(c.bytes)) {
            if (g.number == 1) id = g.value;
            if (g.number == 2) value = g.value;
          }
          if (id == 64) sequence_clock[sequence] = value;
        }
      } else if (f.number == 12) {
        for (const Field& entry : Fields(f.bytes)) {
          if (entry.number != 2) continue;
          uint64_t iid = 0;
          std::string name;
          for (const Field& g : Fields(entry.bytes)) {
            if (g.number == 1) iid = g.value;
            if (g.number == 2) name = g.bytes;
          }
          interned[{sequence, iid}] = name;
        }
      } else if (f.number == 11) {
        ASSERT_TRUE(has_time);
        const uint64_t at = sequence_clock[sequence] += time;
        uint64_t type = 0, iid = 0, id = 0;
        for (const Field& g : Fields(f.bytes)) {
          if (g.number == 9) type = g.value;
          if (g.number == 10) iid = g.value;
          if (g.number == 4) {
            for (const Field& a : Fields(g.bytes)) {
              if (a.number == 3) id = a.value;
            }
          }
        }
        if (type == 1) {
          open[sequence] = read[sequence].size();
          read[sequence].push_back({interned[{sequence, iid}], id, at, 0});
        } else {
          ASSERT_EQ(type, 2u);
          read[sequence][open[sequence]].end_ns = at;
        }
      }
    }
  }
  // Each thread's slices, in order, on a sequence of its own.
  std::map<uint64_t, bool> matched;
  for (const auto& [tid, written] : by_tid) {
    bool found = false;
    for (const auto& [sequence, slices] : read) {
      if (slices.size() != written.size() ||
          slices[0].correlation_id != written[0].correlation_id ||
          slices[0].start_ns != written[0].start_ns || matched[sequence]) {
        continue;
      }
      found = matched[sequence] = true;
      for (size_t k = 0; k < written.size(); ++k) {
        ASSERT_EQ(slices[k].name, written[k].name) << tid << " " << k;
        ASSERT_EQ(slices[k].correlation_id, written[k].correlation_id);
        ASSERT_EQ(slices[k].start_ns, written[k].start_ns) << tid << " " << k;
        ASSERT_EQ(slices[k].end_ns, written[k].end_ns) << tid << " " << k;
      }
      break;
    }
    EXPECT_TRUE(found) << "thread " << tid;
  }
  EXPECT_EQ(by_tid.size(), 130u);
  EXPECT_GT(read.rbegin()->first, 128u);  // two-byte sequence IDs seen
}

}  // namespace
}  // namespace roctrace
