// StoredContacts: taking and letting go of a routing table's references into its PeerDirectory
// (stored_contacts.h).
#include "kademlia/routing/stored_contacts.h"

#include <algorithm>

namespace skillnode::kademlia::routing {

StoredContacts::StoredContacts(PeerDirectory* directory)
    : owned_(directory == nullptr ? std::make_unique<PeerDirectory>(HashKey{}) : nullptr),
      directory_(directory == nullptr ? *owned_ : *directory) {}

StoredContact StoredContacts::Store(const Contact& contact) {
  StoredContact stored;
  stored.id_word = contact.id.FirstWord();
  stored.peer = directory_.Acquire({contact.id, contact.public_key, contact.endpoint});
  stored.SetLiveness(contact);
  return stored;
}

void StoredContacts::Update(StoredContact& stored, const Contact& contact) {
  const PeerRecord record{contact.id, contact.public_key, contact.endpoint};
  if (!(directory_.record(stored.peer) == record)) {
    const PeerDirectory::Ref old = stored.peer;
    stored.peer = directory_.Acquire(record);
    directory_.Release(old);
  }
  stored.SetLiveness(contact);
}

Contact StoredContacts::Load(const StoredContact& stored) const {
  return ContactOf(directory_, stored);
}

StoredContacts::List::iterator StoredContacts::Find(List& list, const NodeId& id) const {
  const uint64_t word = id.FirstWord();
  return std::find_if(list.begin(), list.end(),
                      [&](const StoredContact& c) { return c.id_word == word && IdOf(c) == id; });
}

StoredContacts::List::const_iterator StoredContacts::Find(const List& list,
                                                          const NodeId& id) const {
  const uint64_t word = id.FirstWord();
  return std::find_if(list.begin(), list.end(),
                      [&](const StoredContact& c) { return c.id_word == word && IdOf(c) == id; });
}

void StoredContacts::Append(List& list, size_t max, StoredContact contact) {
  if (list.size() == list.capacity() && list.capacity() < max) list.reserve(max);
  list.push_back(contact);
}

void StoredContacts::PushNewest(List& list, size_t max, StoredContact contact) {
  if (max == 0) {
    Release(contact);
    return;
  }
  if (list.size() >= max) Erase(list, list.begin());
  Append(list, max, contact);
}

StoredContacts::List::iterator StoredContacts::Erase(List& list, List::iterator it) {
  Release(*it);
  return list.erase(it);
}

void StoredContacts::ReleaseAll(const List& list) {
  for (const StoredContact& c : list) Release(c);
}

}  // namespace skillnode::kademlia::routing
