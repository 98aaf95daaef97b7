#include "kademlia/routing/departed_contacts.h"

#include <algorithm>

namespace skillnode::kademlia::routing {

void DepartedContacts::Add(const Contact& contact, transport::TimePoint now) {
  if (config_.departed_max == 0) return;
  auto [handle, inserted] = departed_.Emplace(contact.id);
  Entry& entry = departed_.value(handle);
  entry.contact = contact;
  entry.departed_at = now;
  entry.interval = config_.departed_probe_after;
  entry.next_probe = now + config_.departed_probe_after;
  if (inserted) {
    while (departed_.size() > config_.departed_max) departed_.Erase(departed_.oldest());
  }
  Recompute();
}

std::optional<Contact> DepartedContacts::TakeDue(transport::TimePoint now) {
  if (departed_.empty() || now < std::max(next_due_, next_slot_)) return std::nullopt;
  using Handle = FlatLinkedMap<NodeId, Entry>::Handle;
  Handle due = FlatLinkedMap<NodeId, Entry>::kNone;
  for (Handle h = departed_.oldest(); h != FlatLinkedMap<NodeId, Entry>::kNone;
       h = departed_.newer(h)) {
    if (departed_.value(h).next_probe <= now &&
        (due == FlatLinkedMap<NodeId, Entry>::kNone ||
         departed_.value(h).next_probe < departed_.value(due).next_probe)) {
      due = h;
    }
  }
  if (due == FlatLinkedMap<NodeId, Entry>::kNone) return std::nullopt;
  Entry& entry = departed_.value(due);
  const Contact contact = entry.contact;
  entry.interval *= 2;
  entry.next_probe = now + entry.interval;
  if (entry.next_probe > entry.departed_at + config_.departed_keep) departed_.Erase(due);
  next_slot_ = now + config_.departed_probe_spacing;
  Recompute();
  return contact;
}

transport::TimePoint DepartedContacts::NextDue() const {
  return departed_.empty() ? transport::kTimeNever : std::max(next_due_, next_slot_);
}

void DepartedContacts::Recompute() {
  next_due_ = transport::kTimeNever;
  for (auto h = departed_.oldest(); h != FlatLinkedMap<NodeId, Entry>::kNone;
       h = departed_.newer(h)) {
    next_due_ = std::min(next_due_, departed_.value(h).next_probe);
  }
}

}  // namespace skillnode::kademlia::routing
