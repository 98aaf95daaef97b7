// StoredContacts: every contact a list gains holds one reference of the directory's, every
// contact it loses gives it back, and a stored contact reads back as the Contact it was.
#include "kademlia/routing/stored_contacts.h"

#include <catch2/catch.hpp>

#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

Contact Measured(int i) {
  Contact c = Far(i);
  c.last_seen = kStart + transport::Seconds(i);
  c.rtt = transport::Millis(40 + i);
  c.rtt_deviation = transport::Millis(5);
  c.failures = 1;
  return c;
}

TEST_CASE("stored contacts read back as the contacts they were", "[unit]") {
  StoredContacts contacts(nullptr);
  Contact c = Measured(1);
  c.public_key[3] = 0x5a;
  const StoredContact stored = contacts.Store(c);
  CHECK(stored.id_word == c.id.FirstWord());
  const Contact back = contacts.Load(stored);
  CHECK(back.id == c.id);
  CHECK(back.endpoint == c.endpoint);
  CHECK(back.public_key == c.public_key);
  CHECK(back.last_seen == c.last_seen);
  CHECK(back.rtt == c.rtt);
  CHECK(back.rtt_deviation == c.rtt_deviation);
  CHECK(back.failures == 1);
  CHECK(contacts.IdOf(stored) == c.id);
  CHECK(contacts.directory().references() == 1);
  contacts.Release(stored);
  CHECK(contacts.directory().size() == 0);
}

TEST_CASE("stored contacts share a given directory and hold one reference each", "[unit]") {
  PeerDirectory directory(HashKey{});
  StoredContacts first(&directory);
  StoredContacts second(&directory);
  CHECK(&first.directory() == &directory);
  const StoredContact a = first.Store(Far(1));
  const StoredContact b = second.Store(Far(1));
  CHECK(a.peer == b.peer);  // one record for both
  CHECK(directory.size() == 1);
  CHECK(directory.references() == 2);
  first.Release(a);
  CHECK(directory.size() == 1);
  CHECK(second.Load(b).id == Far(1).id);
  second.Release(b);
  CHECK(directory.size() == 0);
  CHECK(directory.references() == 0);
}

TEST_CASE("updating a stored contact moves its reference only when the record changed", "[unit]") {
  PeerDirectory directory(HashKey{});
  StoredContacts contacts(&directory);
  const StoredContact other = contacts.Store(Far(1));  // another holder of the old record
  StoredContact stored = contacts.Store(Far(1));
  const PeerDirectory::Ref before = stored.peer;

  Contact fresher = Measured(1);  // same record, new liveness
  contacts.Update(stored, fresher);
  CHECK(stored.peer == before);
  CHECK(stored.rtt_us == 41'000);
  CHECK(directory.references() == 2);

  Contact moved = fresher;
  moved.endpoint = transport::Endpoint(*transport::Address::Parse("198.51.100.9"), 7000);
  contacts.Update(stored, moved);
  CHECK(stored.peer != before);
  CHECK(contacts.Load(stored).endpoint == moved.endpoint);
  CHECK(contacts.Load(other).endpoint == Far(1).endpoint);  // the other holder sees no change
  CHECK(directory.size() == 2);
  CHECK(directory.references() == 2);

  contacts.Release(other);
  contacts.Release(stored);
  CHECK(directory.size() == 0);
}

TEST_CASE("finding an id in a list compares whole ids, not only the first word", "[unit]") {
  StoredContacts contacts(nullptr);
  StoredContacts::List list;
  for (int i = 0; i < 3; ++i) list.push_back(contacts.Store(Far(i)));
  CHECK(contacts.Find(list, Far(2).id) == list.begin() + 2);
  const StoredContacts::List& view = list;
  CHECK(contacts.Find(view, Far(0).id) == view.begin());
  CHECK(contacts.Find(list, Far(7).id) == list.end());
  // The same first word with another id is not a match.
  StoredContact twin = list[1];
  twin.id_word = Far(0).id.FirstWord();
  StoredContacts::List forged{twin};
  CHECK(contacts.Find(forged, Far(0).id) == forged.end());
  contacts.ReleaseAll(list);
  CHECK(contacts.directory().size() == 0);
}

TEST_CASE("a bounded list drops and releases its oldest, and never grows past its bound",
          "[unit]") {
  StoredContacts contacts(nullptr);
  StoredContacts::List list;
  for (int i = 0; i < 5; ++i) contacts.PushNewest(list, 3, contacts.Store(Far(i)));
  REQUIRE(list.size() == 3);
  CHECK(list.capacity() == 3);
  CHECK(contacts.IdOf(list.front()) == Far(2).id);
  CHECK(contacts.IdOf(list.back()) == Far(4).id);
  CHECK(contacts.directory().size() == 3);  // the two dropped were let go

  contacts.PushNewest(list, 0, contacts.Store(Far(9)));  // no room at all: released at once
  CHECK(list.size() == 3);
  CHECK(contacts.directory().size() == 3);

  const auto next = contacts.Erase(list, list.begin());
  CHECK(contacts.IdOf(*next) == Far(3).id);
  CHECK(contacts.directory().size() == 2);
  contacts.ReleaseAll(list);
  CHECK(contacts.directory().references() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::routing
