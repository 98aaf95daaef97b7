// TermPointerMerge (term_pointer_merge.h): the checks on a copy, and the newest per identity.
#include "kademlia/store/terms/term_pointer_merge.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace skillnode::kademlia::store::terms {
namespace {

Key CopyHash(const wire::WireRecord& copy) {
  std::vector<uint8_t> bytes(copy.encoded);
  bytes.insert(bytes.end(), copy.signature.begin(), copy.signature.end());
  return Key::Sha256(bytes);
}

}  // namespace

TermPointerMerge::TermPointerMerge(std::string term, const RecordWindow& window,
                                   const SignatureScheme& signatures,
                                   std::vector<uint16_t> with_terms)
    : term_(std::move(term)),
      with_terms_(std::move(with_terms)),
      window_(window),
      signatures_(signatures) {}

std::optional<TermPointerMerge::Taken> TermPointerMerge::Take(
    transport::TimePoint now, uint32_t shard, const wire::WireRecord& copy,
    std::optional<uint32_t> seconds_left) {
  assert(shard < kTermShardsMax);
  if (copy.is_reference()) {  // every pointer travels inline
    ++rejected_;
    return std::nullopt;
  }
  const Key hash = CopyHash(copy);
  auto known = verified_.find(hash);
  if (known == verified_.end()) {
    auto verified = VerifyTermPointer(copy.encoded, copy.signature, signatures_);
    if (!verified) {
      ++rejected_;
      return std::nullopt;
    }
    known =
        verified_.emplace(hash, std::make_shared<SignedTermPointer>(std::move(*verified))).first;
  }
  // The key asked was TermKey(term_, shard): it must be that shard of the pointer's term.
  const std::string& term = known->second->pointer.term;
  if (term != term_ || TermShardOf(term, TermKey(term_, shard)) != shard) {
    ++rejected_;
    return std::nullopt;
  }
  return Merge(now, shard, known->second, seconds_left);
}

std::optional<TermPointerMerge::Taken> TermPointerMerge::TakeHeld(transport::TimePoint now,
                                                                  uint32_t shard,
                                                                  const SignedTermPointer& held,
                                                                  uint32_t seconds_left) {
  // The holder side kept it under this shard's key only after checking that it belongs there.
  assert(held.pointer.term == term_);
  return Merge(now, shard, std::make_shared<SignedTermPointer>(held), seconds_left);
}

std::optional<TermPointerMerge::Taken> TermPointerMerge::Merge(
    transport::TimePoint now, uint32_t shard, const PointerPtr& pointer,
    std::optional<uint32_t> seconds_left) {
  const TermPointer& p = pointer->pointer;
  if (!window_.Check(now, p)) {
    ++rejected_;
    ++outside_window_;
    return std::nullopt;
  }
  const RecordIdentity identity = IdentityOf(p);
  auto [it, inserted] = newest_.try_emplace(identity, Newest{pointer, shard});
  if (inserted) {
    live_ += Counts(p) ? 1 : 0;
  } else if (p.sequence > it->second.pointer->pointer.sequence) {
    live_ -= Counts(it->second.pointer->pointer) ? 1 : 0;
    live_ += Counts(p) ? 1 : 0;
    it->second = Newest{pointer, shard};
  }
  Newest& newest = it->second;
  if (seconds_left && p.sequence == newest.pointer->pointer.sequence) {
    newest.seconds_left =
        newest.told ? std::max(newest.seconds_left, *seconds_left) : *seconds_left;
    newest.told = true;
  }
  return Taken{identity, p.sequence, Passes(p)};
}

std::vector<SignedTermPointer> TermPointerMerge::Live() const {
  std::vector<const std::pair<const RecordIdentity, Newest>*> live;
  live.reserve(live_);
  for (const auto& entry : newest_) {
    if (Counts(entry.second.pointer->pointer)) live.push_back(&entry);
  }
  assert(live.size() == live_);
  // Identity order already (the map's); a stable sort by weight keeps it among equals.
  std::stable_sort(live.begin(), live.end(), [](const auto* a, const auto* b) {
    return a->second.pointer->pointer.weight_centi > b->second.pointer->pointer.weight_centi;
  });
  std::vector<SignedTermPointer> out;
  out.reserve(live.size());
  for (const auto* entry : live) out.push_back(*entry->second.pointer);
  return out;
}

}  // namespace skillnode::kademlia::store::terms
