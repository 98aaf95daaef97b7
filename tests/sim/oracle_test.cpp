// The oracle's closest-node queries against brute force.
#include "sim/workloads/oracle.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "transport/rng.h"

namespace skillnode::sim {
namespace {

using kademlia::Key;

std::vector<workloads::OracleEntry> RandomEntries(size_t n, transport::Rng& rng) {
  std::vector<workloads::OracleEntry> entries(n);
  for (uint32_t i = 0; i < n; ++i) {
    rng.Fill(entries[i].id.mutable_bytes());
    entries[i].slot = i;
  }
  return entries;
}

std::vector<uint32_t> BruteForce(std::vector<workloads::OracleEntry> all, const Key& target,
                                 size_t count, const workloads::Oracle::Filter& keep) {
  std::sort(all.begin(), all.end(),
            [&](const workloads::OracleEntry& a, const workloads::OracleEntry& b) {
              return kademlia::CloserTo(target, a.id, b.id);
            });
  std::vector<uint32_t> out;
  for (const workloads::OracleEntry& e : all) {
    if (out.size() == count) break;
    if (!keep || keep(e)) out.push_back(e.slot);
  }
  return out;
}

std::vector<uint32_t> Slots(const std::vector<workloads::OracleEntry>& entries) {
  std::vector<uint32_t> out;
  for (const workloads::OracleEntry& e : entries) out.push_back(e.slot);
  return out;
}

TEST_CASE("the oracle's closest nodes are those brute force finds, with and without a filter",
          "[unit]") {
  transport::Rng rng(1);
  const auto entries = RandomEntries(2000, rng);
  workloads::Oracle oracle;
  oracle.Assign(entries);
  const workloads::Oracle::Filter odd = [](const workloads::OracleEntry& e) {
    return e.slot % 3 == 1;
  };
  for (int i = 0; i < 200; ++i) {
    Key target;
    rng.Fill(target.mutable_bytes());
    if (i % 4 == 0) target = entries[static_cast<size_t>(i)].id;  // a node's own id
    for (size_t count : {1, 8, 20}) {
      CHECK(Slots(oracle.Closest(target, count)) == BruteForce(entries, target, count, {}));
      CHECK(Slots(oracle.Closest(target, count, odd)) == BruteForce(entries, target, count, odd));
    }
  }
  // Asking for more than there are returns everything, closest first.
  Key target;
  CHECK(oracle.Closest(target, 5000).size() == 2000);
}

TEST_CASE("a prefix range holds exactly the ids with that prefix", "[unit]") {
  transport::Rng rng(2);
  const auto entries = RandomEntries(500, rng);
  workloads::Oracle oracle;
  oracle.Assign(entries);
  const Key prefix = entries[7].id;
  for (int depth : {0, 1, 3, 8, 12}) {
    size_t expected = 0;
    for (const workloads::OracleEntry& e : entries) {
      bool same = true;
      for (int b = 0; b < depth; ++b) same &= e.id.Bit(b) == prefix.Bit(b);
      expected += same;
    }
    const auto range = oracle.PrefixRange(prefix, depth);
    CHECK(range.size() == expected);
    for (const workloads::OracleEntry& e : range) CHECK(e.id.CommonPrefixLength(prefix) >= depth);
  }
}

TEST_CASE("inserting and erasing keep the oracle sorted and searchable", "[unit]") {
  transport::Rng rng(3);
  const auto entries = RandomEntries(300, rng);
  workloads::Oracle oracle;
  for (const workloads::OracleEntry& e : entries) oracle.Insert(e.id, e.slot);
  for (size_t i = 0; i < entries.size(); i += 2) CHECK(oracle.Erase(entries[i].id));
  CHECK_FALSE(oracle.Erase(entries[0].id));
  CHECK(oracle.size() == 150);
  CHECK(std::is_sorted(oracle.entries().begin(), oracle.entries().end(),
                       [](const auto& a, const auto& b) { return a.id < b.id; }));
  CHECK(oracle.Contains(entries[1].id));
  CHECK_FALSE(oracle.Contains(entries[2].id));
  std::vector<workloads::OracleEntry> rest;
  for (size_t i = 1; i < entries.size(); i += 2) rest.push_back(entries[i]);
  const Key target = entries[4].id;
  CHECK(Slots(oracle.Closest(target, 10)) == BruteForce(rest, target, 10, {}));
}

}  // namespace
}  // namespace skillnode::sim
