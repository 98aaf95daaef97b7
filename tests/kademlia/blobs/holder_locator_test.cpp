// HolderLocator in seeded many-node runs: the holders of a digest found through the directory
// nodes, copies before the publisher's node, filtered holders and this node left out, no
// holders, and a cancelled search.
#include "kademlia/blobs/holder_locator.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "holder_fixture.h"

namespace skillnode::kademlia::blobs {
namespace {

// The holder network (holder_fixture.h) with a HolderLocator of its own on node `kSearcher`,
// over an empty directory.
struct LocatorNet : HolderNet {
  static constexpr size_t kSearcher = kClient;
  std::unique_ptr<HolderLocator> locator;

  LocatorNet() : HolderNet(/*seed=*/91) {
    locator = std::make_unique<HolderLocator>(net.node(kSearcher), own, net.rng());
  }

  // The holders the locator reports, or nullopt when it never reported.
  std::optional<std::vector<wire::WireContact>> Locate(
      const std::string& bytes, std::optional<size_t> publisher,
      HolderLocator::HolderFilter skip = [](transport::TimePoint, const NodeId&) {
        return false;
      }) {
    std::optional<std::vector<wire::WireContact>> located;
    std::optional<NodeId> publisher_id;
    if (publisher) publisher_id = net.node(*publisher).id();
    locator->Locate(net.now(), DigestOf(bytes), publisher_id, std::move(skip),
                    [&located](transport::TimePoint, std::vector<wire::WireContact> holders) {
                      located = std::move(holders);
                    });
    net.RunFor(transport::Seconds(20));
    return located;
  }

  bool Lists(const std::vector<wire::WireContact>& holders, size_t i) {
    for (const wire::WireContact& holder : holders) {
      if (holder.id == net.node(i).id()) return true;
    }
    return false;
  }
};

TEST_CASE("the holder locator lists the announced copies first and the publisher's node last",
          "[unit]") {
  LocatorNet lab;
  const std::string bytes(4000, 'q');
  lab.Hold(3, bytes);  // the publisher
  lab.Hold(9, bytes);
  lab.Hold(12, bytes);
  lab.net.RunFor(transport::Seconds(5));
  const auto holders = lab.Locate(bytes, 3);
  REQUIRE(holders.has_value());
  REQUIRE(holders->size() == 3);
  CHECK(holders->back().id == lab.net.node(3).id());
  CHECK(lab.Lists(*holders, 9));
  CHECK(lab.Lists(*holders, 12));
  CHECK(lab.locator->running() == 0);
}

TEST_CASE("the holder locator finds an unannounced publisher's node by its id", "[unit]") {
  LocatorNet lab;
  const std::string bytes(700, 'p');
  lab.sources[5]->blobs[DigestOf(bytes)] = bytes;  // held, never announced
  const auto holders = lab.Locate(bytes, 5);
  REQUIRE(holders.has_value());
  REQUIRE(holders->size() == 1);
  CHECK(holders->front().id == lab.net.node(5).id());
}

TEST_CASE("the holder locator leaves out holders its filter rejects and never lists its own node",
          "[unit]") {
  LocatorNet lab;
  const std::string bytes(2500, 'f');
  lab.Hold(3, bytes);
  lab.Hold(9, bytes);
  lab.Hold(LocatorNet::kSearcher, bytes);
  lab.net.RunFor(transport::Seconds(5));
  const NodeId rejected = lab.net.node(9).id();
  const auto holders =
      lab.Locate(bytes, 3, [&](transport::TimePoint, const NodeId& id) { return id == rejected; });
  REQUIRE(holders.has_value());
  CHECK(holders->size() == 1);
  CHECK(lab.Lists(*holders, 3));
  CHECK_FALSE(lab.Lists(*holders, 9));
  CHECK_FALSE(lab.Lists(*holders, LocatorNet::kSearcher));
}

TEST_CASE("the holder locator reports no holders for a digest nobody announced", "[unit]") {
  LocatorNet lab;
  const auto holders = lab.Locate("nobody has these bytes", std::nullopt);
  REQUIRE(holders.has_value());
  CHECK(holders->empty());
}

TEST_CASE("a cancelled locating never reports and its late lookups are ignored", "[unit]") {
  LocatorNet lab;
  const std::string bytes(900, 'c');
  lab.Hold(3, bytes);
  lab.net.RunFor(transport::Seconds(5));
  bool reported = false;
  lab.locator->Locate(
      lab.net.now(), DigestOf(bytes), lab.net.node(3).id(),
      [](transport::TimePoint, const NodeId&) { return false; },
      [&reported](transport::TimePoint, std::vector<wire::WireContact>) { reported = true; });
  CHECK(lab.locator->running() == 1);
  lab.locator->Cancel(DigestOf(bytes));
  CHECK(lab.locator->running() == 0);
  lab.net.RunFor(transport::Seconds(20));
  CHECK_FALSE(reported);
  CHECK(lab.locator->running() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
