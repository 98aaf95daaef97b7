// StateSaver: when the routing table is saved to the data directory, and what is saved, driven
// by hand: a table the test fills and a clock the test moves; no loop.
#include "node/daemon/state_saver.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/identity.h"
#include "tests/support/temp_dir.h"

namespace skillnode::node::daemon {
namespace {

constexpr uint32_t kNetwork = 7;
constexpr transport::Duration kInterval = transport::Seconds(60);

kademlia::Contact MakeContact(uint8_t n) {
  kademlia::Contact contact;
  contact.public_key.fill(n);
  contact.id = kademlia::NodeIdOf(contact.public_key);
  contact.endpoint = transport::Endpoint(transport::Address::V4({10, 0, 0, n}), 6881);
  return contact;
}

// A routing table the test edits, read by the saver through TableSource.
struct FakeTable {
  kademlia::routing::RoutingTableStats stats;
  std::vector<kademlia::Contact> contacts;

  void Hold(size_t count) {
    contacts.clear();
    for (size_t i = 0; i < count; ++i) contacts.push_back(MakeContact(static_cast<uint8_t>(i + 1)));
    stats.contacts = count;
  }
  TableSource Source() {
    return {[this] { return stats; }, [this] { return contacts; }};
  }
};

struct Fixture {
  testing::TempDir dir;
  state::DataDir data_dir = *state::DataDir::Open(dir.File("data"));
  FakeTable table;
  transport::NullLogger logger;
  StateSaver saver{{.enabled = true, .network_id = kNetwork, .save_interval = kInterval},
                   data_dir,
                   table.Source(),
                   logger};
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(100);

  void Advance(transport::Duration d) {
    now += d;
    while (saver.NextDeadline() <= now) saver.OnTimer(saver.NextDeadline());
  }
  size_t SavedContacts() {
    transport::NullLogger quiet;
    return data_dir.LoadContacts(kNetwork, 0, quiet).size();
  }
};

TEST_CASE("the saver does nothing before Start and checks the table every second after", "[unit]") {
  Fixture f;
  CHECK(f.saver.NextDeadline() == transport::kTimeNever);
  f.saver.Start(f.now);
  CHECK(f.saver.NextDeadline() == f.now + kTableCheckInterval);
  f.Advance(transport::Seconds(5));
  CHECK(f.saver.saves() == 0);  // an empty table is not saved by a check
}

TEST_CASE("the saver writes the table within a second of first holding a contact", "[unit]") {
  Fixture f;
  f.saver.Start(f.now);
  f.Advance(transport::Millis(1500));
  CHECK(f.saver.saves() == 0);
  f.table.Hold(3);
  f.Advance(kTableCheckInterval);
  CHECK(f.saver.saves() == 1);
  CHECK(f.SavedContacts() == 3);
  f.Advance(transport::Seconds(10));  // nothing changed since
  CHECK(f.saver.saves() == 1);
}

TEST_CASE("the saver writes the table when more than a quarter changed", "[unit]") {
  Fixture f;
  f.saver.Start(f.now);
  f.table.Hold(8);
  f.Advance(kTableCheckInterval);
  REQUIRE(f.saver.saves() == 1);
  f.table.Hold(10);  // two of eight: a quarter, not more
  f.Advance(kTableCheckInterval);
  CHECK(f.saver.saves() == 1);
  f.table.stats.evicted = 1;  // three of eight
  f.Advance(kTableCheckInterval);
  CHECK(f.saver.saves() == 2);
  CHECK(f.SavedContacts() == 10);
}

TEST_CASE("the saver writes the table every stateSaveInterval", "[unit]") {
  Fixture f;
  f.saver.Start(f.now);
  f.table.Hold(2);
  f.Advance(kTableCheckInterval);
  REQUIRE(f.saver.saves() == 1);
  f.Advance(kInterval - kTableCheckInterval - transport::Millis(1));
  CHECK(f.saver.saves() == 1);
  f.Advance(transport::Millis(1));
  CHECK(f.saver.saves() == 2);
  f.Advance(kInterval);
  CHECK(f.saver.saves() == 3);
}

TEST_CASE("the shutdown save adds back the contacts evicted since the shutdown began", "[unit]") {
  Fixture f;
  f.saver.Start(f.now);
  f.table.Hold(4);
  f.saver.BeginShutdown();
  f.table.Hold(1);  // three peers stopped too and were evicted by the shutdown steps
  f.table.stats.evicted = 3;
  f.Advance(transport::Seconds(5));
  CHECK(f.saver.saves() == 0);  // no table checks once the shutdown began
  f.saver.SaveAtShutdown();
  CHECK(f.saver.saves() == 1);
  CHECK(f.SavedContacts() == 4);
  CHECK(f.saver.NextDeadline() == transport::kTimeNever);
}

TEST_CASE("after a failed save only the periodic saves try again", "[unit]") {
  Fixture f;
  f.saver.Start(f.now);
  f.table.Hold(2);
  // A directory where the contacts file goes: no save can replace it (not even as root).
  const std::string contacts = f.data_dir.contacts_path();
  REQUIRE(::mkdir(contacts.c_str(), 0700) == 0);
  f.Advance(kTableCheckInterval);
  CHECK(f.saver.save_failures() == 1);
  CHECK(f.saver.saves() == 0);
  f.table.Hold(9);
  f.Advance(transport::Seconds(10));
  CHECK(f.saver.save_failures() == 1);  // no table check tried again
  REQUIRE(::rmdir(contacts.c_str()) == 0);
  f.Advance(kInterval);
  CHECK(f.saver.saves() == 1);  // the periodic save did
  CHECK(f.SavedContacts() == 9);
}

TEST_CASE("a saver with the DHT off never writes", "[unit]") {
  testing::TempDir dir;
  auto data_dir = *state::DataDir::Open(dir.File("data"));
  FakeTable table;
  table.Hold(5);
  transport::NullLogger logger;
  StateSaver saver({.enabled = false, .network_id = kNetwork, .save_interval = kInterval}, data_dir,
                   table.Source(), logger);
  saver.Start(transport::kTimeZero);
  for (transport::TimePoint t = transport::kTimeZero; t < transport::kTimeZero + 2 * kInterval;
       t += kTableCheckInterval) {
    saver.OnTimer(t);
  }
  saver.SaveAtShutdown();
  CHECK(saver.saves() == 0);
  CHECK(saver.save_failures() == 0);
}

TEST_CASE("the saver's counters appear in the metrics text", "[unit]") {
  Fixture f;
  f.saver.Start(f.now);
  f.table.Hold(1);
  f.Advance(kTableCheckInterval);
  http::PrometheusWriter out;
  f.saver.WriteMetrics(out);
  const std::string text = out.Take();
  CHECK(text.find("skillnode_state_saves_total 1") != std::string::npos);
  CHECK(text.find("skillnode_state_save_failures_total 0") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::daemon
