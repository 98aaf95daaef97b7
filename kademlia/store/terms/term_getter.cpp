// TermGetter (term_getter.h): a term's shards read in order, each by a lookup and its closest
// holder's pages, then read repair, until a shard is not full or enough has been read.
#include "kademlia/store/terms/term_getter.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "kademlia/store/terms/page_cursors.h"
#include "kademlia/store/terms/term_pointer_merge.h"

namespace skillnode::kademlia::store::terms {
namespace {

// Pages one shard's read follows at most after its lookup: a full key of the smallest pointers
// is under 90 pages; this bounds a holder that keeps sending a `next`.
constexpr size_t kShardPagesMax = kTermPointersPerKeyMax;

}  // namespace

struct TermGetter::ReadState {
  ReadState(std::string_view term_read, std::vector<uint16_t> filter, const RecordWindow& window,
            const SignatureScheme& signatures)
      : term(term_read), with_terms(filter), merge(term, window, signatures, std::move(filter)) {}

  // One node's answers under the shard being read.
  struct Holder {
    explicit Holder(size_t window) : cursors(window) {}
    uint32_t tt = 0;      // pointers it holds under the key (how full the shard is)
    uint32_t listed = 0;  // of them, those its pages list: "tm" when it filtered, else tt
    PageCursors cursors;  // its pages read, asked and left
    std::map<RecordIdentity, uint64_t> held;  // what its pages held: the highest sequence
  };
  struct Shard {
    uint32_t index = 0;
    Key key;
    std::map<NodeId, Holder> holders;
    std::set<RecordIdentity> found;  // identities this shard gave
    size_t own_count = 0;            // pointers this node holds under the key
    bool lookup_done = false;
    bool cut = false;  // stopped before its end: enough was read, or a page was lost
    size_t pending_pages = 0;
    size_t pages = 0;  // requested after the lookup
    std::vector<Contact> closest;
    std::vector<std::vector<uint8_t>> tokens;  // closest's write tokens
  };

  bool enough() const { return merge.live() >= limit; }

  std::string term;
  std::vector<uint16_t> with_terms;  // TermGetOptions::with_terms
  TermPointerMerge merge;
  size_t limit = 0;
  TermGetCallback done;
  TermGetResult result;  // its counters, as they grow
  size_t repairs = 0;
  bool held_here = false;  // this node holds pointers under one of the shards read
  bool finished = false;
  Shard shard;
};

TermGetter::TermGetter(Node& node, const DhtConfig& config, const TermTable& table,
                       const RecordWindow& window, DhtStats& stats)
    : node_(node), config_(config), table_(table), window_(window), stats_(stats) {}

bool TermGetter::Get(transport::TimePoint now, std::string_view term, const TermGetOptions& options,
                     TermGetCallback done) {
  assert(!term.empty() && term.size() <= kTermBytesMax);
  assert(config_.term_pointers_read_max > 0);
  assert(options.with_terms.size() <= wire::kFindValueTermsMax);
  auto read = std::make_shared<ReadState>(term, options.with_terms, window_, node_.signatures());
  read->limit = options.wanted == 0 ? config_.term_pointers_read_max
                                    : std::min(options.wanted, config_.term_pointers_read_max);
  read->done = std::move(done);
  if (!StartShard(read, now, 0)) return false;
  ++stats_.term_gets_started;
  return true;
}

bool TermGetter::StartShard(const ReadPtr& read, transport::TimePoint now, uint32_t shard) {
  assert(shard < kTermShardsMax);
  read->shard = ReadState::Shard{};
  read->shard.index = shard;
  read->shard.key = TermKey(read->term, shard);
  const Key key = read->shard.key;
  // This node's own pointers under the key count as an answer.
  const size_t own = table_.Count(key);
  read->shard.own_count = own;
  read->held_here = read->held_here || own > 0;
  for (const StoredPointer* held : table_.Page(key, 0, own, read->with_terms)) {
    if (auto taken = read->merge.TakeHeld(now, shard, held->Signed(), SecondsLeft(*held, now))) {
      read->shard.found.insert(taken->identity);
    }
  }
  LookupOptions lookup;
  lookup.request = [key, with_terms = read->with_terms](const Key&) {
    return wire::FindValueBody{key, 0, with_terms};
  };
  lookup.slow_retries = config_.get_slow_retries;
  lookup.closest_wanted = config_.lookup_closest;
  lookup.on_reply = [this, read, shard](transport::TimePoint at, const Contact& from,
                                        const wire::Message& reply) {
    if (read->shard.index != shard || read->shard.lookup_done) return true;
    if (const auto* values = std::get_if<wire::ValuesBody>(&reply.body)) {
      OnValues(read, at, from, 0, *values);
    }
    if (!read->enough()) return false;
    read->shard.cut = true;  // the lookup ends before its closest holders have all answered
    return true;
  };
  return node_.StartLookup(now, key, std::move(lookup),
                           [this, read, shard, now](const LookupResult& result) {
                             ReadState::Shard& s = read->shard;
                             assert(s.index == shard && !s.lookup_done);
                             s.lookup_done = true;
                             s.closest = result.closest;
                             s.tokens = result.tokens;
                             ++read->result.lookups;
                             read->result.messages += result.stats.messages;
                             read->result.replies += result.stats.replies;
                             PageOrFinish(read, std::max(now, result.finished));
                           });
}

void TermGetter::OnValues(const ReadPtr& read, transport::TimePoint now, const Contact& from,
                          uint32_t cursor, const wire::ValuesBody& values) {
  ReadState::Shard& s = read->shard;
  ReadState::Holder& holder =
      s.holders.try_emplace(from.id, config_.term_pages_in_flight_max).first->second;
  holder.tt = std::max(holder.tt, values.total);
  // A holder that filtered pages through what passed ("tm"); one that did not, through all.
  const uint32_t listed = values.matched.value_or(values.total);
  holder.listed = std::max(holder.listed, listed);
  holder.cursors.SetTotal(listed);
  holder.cursors.OnPage(cursor, values.records.size(), values.next);
  for (size_t i = 0; i < values.records.size(); ++i) {
    const wire::WireRecord& copy = values.records[i];
    read->result.pointer_bytes += copy.encoded.size() + copy.signature.size();
    const auto left =
        i < values.lifetimes.size() ? std::optional(values.lifetimes[i]) : std::nullopt;
    if (auto taken = read->merge.Take(now, s.index, copy, left)) {
      uint64_t& sequence = holder.held[taken->identity];
      sequence = std::max(sequence, taken->sequence);
      // What a filtering holder's "tm" counts: a holder that does not filter sends the rest.
      if (taken->passes) s.found.insert(taken->identity);
    }
  }
}

void TermGetter::PageOrFinish(const ReadPtr& read, transport::TimePoint now) {
  ReadState::Shard& s = read->shard;
  if (read->finished || !s.lookup_done) return;
  // Every node of the lookup's closest, not only the r closest: churn pushes a holder past the
  // r-th place when newcomers land before it, and its pointers are where a reader finds them
  // until a read repairs the r closest (FinishShard).
  for (size_t i = 0; i < s.closest.size(); ++i) {
    const Contact& contact = s.closest[i];
    auto it = s.holders.find(contact.id);
    if (it == s.holders.end()) continue;
    ReadState::Holder& holder = it->second;
    // A holder is read on only while it reports more pointers than the shard has given: after
    // the closest one's pages, the others hold the same pointers unless churn has split them.
    // One being read is read on until its pages in flight are answered.
    if (holder.cursors.in_flight() == 0 &&
        (!holder.cursors.more() || holder.listed <= s.found.size())) {
      continue;
    }
    // Its next pages, as many as the window takes.
    while (!read->enough() && s.pages < kShardPagesMax) {
      const std::optional<uint32_t> cursor = holder.cursors.Next();
      if (!cursor) break;
      ++s.pages;
      ++read->result.pages;
      if (!RequestPage(read, now, contact, *cursor, 1)) {
        holder.cursors.OnLost(*cursor);  // the node refuses more requests
        s.cut = true;
        break;
      }
    }
    if (holder.cursors.in_flight() > 0) return;  // back here as they are answered
    if (read->enough() || s.pages >= kShardPagesMax) {
      s.cut = true;
      break;
    }
    if (holder.cursors.more()) {
      s.cut = true;  // refused: the rest of this holder is not read
      break;
    }
  }
  if (s.pending_pages > 0) return;
  FinishShard(read, now);
}

bool TermGetter::RequestPage(const ReadPtr& read, transport::TimePoint now, const Contact& from,
                             uint32_t cursor, size_t attempt) {
  ReadState::Shard& s = read->shard;
  const uint32_t shard = s.index;
  const bool sent = node_.Request(
      now, from.endpoint, from.id, wire::FindValueBody{s.key, cursor, read->with_terms},
      [this, read, from, cursor, attempt, shard](const rpc::RpcResult& result) {
        ReadState::Shard& at = read->shard;
        assert(at.index == shard && at.pending_pages > 0);
        (void)shard;
        --at.pending_pages;
        const auto* values = result.status == rpc::RpcStatus::kReplied
                                 ? std::get_if<wire::ValuesBody>(&result.reply->body)
                                 : nullptr;
        if (result.status == rpc::RpcStatus::kReplied) ++read->result.replies;
        if (values != nullptr) {
          OnValues(read, result.now, from, cursor, *values);
        } else if (result.status == rpc::RpcStatus::kTimedOut &&
                   attempt < config_.page_attempts_max && !read->finished) {
          // A lost page would lose its pointers for this read: ask again.
          ++stats_.pages_retried;
          if (RequestPage(read, result.now, from, cursor, attempt + 1)) return;
          Lose(read, from, cursor);
        } else {
          Lose(read, from, cursor);  // this holder's further pages are not read
        }
        PageOrFinish(read, result.now);
      });
  if (!sent) return false;
  ++s.pending_pages;
  ++read->result.messages;
  return true;
}

void TermGetter::Lose(const ReadPtr& read, const Contact& from, uint32_t cursor) {
  ReadState::Shard& s = read->shard;
  s.cut = true;
  const auto it = s.holders.find(from.id);
  if (it != s.holders.end()) it->second.cursors.OnLost(cursor);
}

void TermGetter::FinishShard(const ReadPtr& read, transport::TimePoint now) {
  ReadState::Shard& s = read->shard;
  ++read->result.shards_read;
  // How full the shard is: the most any of its closest holders that answered (or this node)
  // reported. One newcomer that has not yet been handed the key does not end the read.
  uint64_t count = s.own_count;
  for (size_t i = 0; i < std::min(config_.replication, s.closest.size()); ++i) {
    const auto it = s.holders.find(s.closest[i].id);
    if (it != s.holders.end()) count = std::max<uint64_t>(count, it->second.tt);
  }
  if (s.index == 0) read->result.shard0_count = count;
  const bool last = count < kTermPointersPerKeyMax || s.index + 1 == kTermShardsMax;
  // A filtered read saw only what passed: which holder lacks what, it cannot say (and a newer
  // version the filter hid would refuse an older one as stale).
  if (!s.cut && read->with_terms.empty()) ReadRepair(read, now);
  if (last || s.cut || read->enough()) {
    // A shard no node answered for (and this node holds nothing of) says nothing of the rest.
    const bool answered = !s.closest.empty() || s.own_count > 0;
    read->result.complete = last && !s.cut && answered;
    Finish(read, now);
    return;
  }
  if (!StartShard(read, now, s.index + 1)) Finish(read, now);  // the node refuses more lookups
}

void TermGetter::ReadRepair(const ReadPtr& read, transport::TimePoint now) {
  const ReadState::Shard& s = read->shard;
  // The r closest nodes that answered should hold every pointer of the shard; when we are
  // closer than the r-th of them, we are one of the r ourselves.
  size_t places = std::min(config_.replication, s.closest.size());
  if (places > 0 && CloserTo(s.key, node_.id(), s.closest[places - 1].id)) --places;
  for (size_t i = 0; i < places && i < s.tokens.size(); ++i) {
    const Contact& node = s.closest[i];
    const auto it = s.holders.find(node.id);
    if (s.tokens[i].empty() || it == s.holders.end() || !it->second.cursors.complete()) {
      continue;
    }
    // A full key takes a pointer only where it outweighs the lightest: not worth a STORE.
    if (it->second.tt >= kTermPointersPerKeyMax) continue;
    for (const auto& [identity, newest] : read->merge.newest()) {
      if (newest.shard != s.index || !newest.told) continue;
      const auto held = it->second.held.find(identity);
      if (held != it->second.held.end() && held->second >= newest.pointer->pointer.sequence) {
        continue;
      }
      if (read->repairs == config_.read_repair_stores_max) return;
      ++read->repairs;
      ++stats_.term_read_repairs;
      ++read->result.messages;
      node_.Request(
          now, node.endpoint, node.id,
          wire::StoreBody{s.key, s.tokens[i],
                          wire::WireRecord{newest.pointer->encoded, newest.pointer->signature},
                          newest.seconds_left},
          nullptr);
    }
  }
}

void TermGetter::Finish(const ReadPtr& read, transport::TimePoint now) {
  assert(!read->finished);
  read->finished = true;
  TermGetResult& result = read->result;
  result.pointers = read->merge.Live();
  result.rejected = read->merge.rejected();
  result.finished = now;
  if (!result.pointers.empty()) {
    result.status = TermGetStatus::kFound;
  } else {
    // Unreachable: asked and not answered. A node with no contact at all asked nobody: its
    // network is empty, not unreachable (as a get's lookup counts it).
    const bool unreachable = result.messages > 0 && result.replies == 0 && !read->held_here;
    result.status = unreachable ? TermGetStatus::kUnreachable : TermGetStatus::kNone;
  }
  stats_.term_pointers_outside_window += read->merge.outside_window();
  if (read->done) read->done(now, std::move(result));
}

}  // namespace skillnode::kademlia::store::terms
