// StoredContacts: a routing table's contacts as references into a PeerDirectory.
//
// A bucket keeps each contact as a StoredContact (bucket.h): its liveness figures and a counted
// reference to the record (id, key, address) in the directory. StoredContacts is the one place
// that takes and lets go of those references, so that every contact a list gains holds exactly
// one and every contact it loses gives it back: storing a Contact, changing a stored one's
// record, reading one back as a Contact, finding an id in a list, and erasing from a list. The
// Kademlia policy (which contact goes where) stays the RoutingTable's.
//
// The directory is the one given, shared with other tables of the same thread, or one of its
// own when none is. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_ROUTING_STORED_CONTACTS_H_
#define SKILLNODE_KADEMLIA_ROUTING_STORED_CONTACTS_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "kademlia/routing/bucket.h"
#include "kademlia/routing/peer_directory.h"

namespace skillnode::kademlia::routing {

class StoredContacts {
 public:
  using List = std::vector<StoredContact>;

  // `directory`: shared, and it must outlive this; null: a directory of its own.
  explicit StoredContacts(PeerDirectory* directory);
  StoredContacts(const StoredContacts&) = delete;
  StoredContacts& operator=(const StoredContacts&) = delete;

  PeerDirectory& directory() const { return directory_; }

  // `contact` as a list stores it, holding a new reference to its record.
  StoredContact Store(const Contact& contact);
  // Gives `stored` the record and liveness of `contact` (the same id): a changed record
  // (another address, a key learnt) is a new reference, and the old one is let go.
  void Update(StoredContact& stored, const Contact& contact);
  // The Contact `stored` holds.
  Contact Load(const StoredContact& stored) const;
  const PeerRecord& RecordOf(const StoredContact& stored) const {
    return directory_.record(stored.peer);
  }
  const NodeId& IdOf(const StoredContact& stored) const { return RecordOf(stored).id; }

  // The contact with `id` in `list`, or list.end(). Compares the first id word before the
  // record, so a miss seldom reads the directory.
  List::iterator Find(List& list, const NodeId& id) const;
  List::const_iterator Find(const List& list, const NodeId& id) const;

  // Appends to a list that never holds more than `max`: a full list grows straight to `max`,
  // not to twice its size (a simulator holds a million tables of these lists).
  static void Append(List& list, size_t max, StoredContact contact);
  // Appends `contact` as the newest of a list kept oldest first, dropping (and releasing) the
  // oldest when the list holds `max`; with `max` 0 the contact is released at once.
  void PushNewest(List& list, size_t max, StoredContact contact);
  // Removes the contact at `it` and lets go of its reference; returns the next position.
  List::iterator Erase(List& list, List::iterator it);
  // Lets go of a contact no list holds any more.
  void Release(const StoredContact& stored) { directory_.Release(stored.peer); }
  // Lets go of every contact of `list` (which is then to be dropped or cleared).
  void ReleaseAll(const List& list);

 private:
  std::unique_ptr<PeerDirectory> owned_;  // when none was given
  PeerDirectory& directory_;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_STORED_CONTACTS_H_
