// SkillGetter (skill_getter.h): the get path's lookup, pages, merge and read repair.
#include "kademlia/store/reader/skill_getter.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "kademlia/store/skill_dht_internal.h"

namespace skillnode::kademlia::store {
namespace {

using skill_dht_internal::BelongsUnder;
using skill_dht_internal::SecondsLeft;

// Pages one get follows at most (records per key are bounded by the holders' quotas too).
constexpr size_t kGetPagesMax = 256;

}  // namespace

SkillGetter::SkillGetter(Node& node, const DhtConfig& config, const ValueStore& store,
                         RecordVerifier& verifier, const RecordWindow& window, RecordPull& pull,
                         RecordOutbox& outbox, DhtStats& stats)
    : node_(node),
      config_(config),
      store_(store),
      verifier_(verifier),
      window_(window),
      pull_(pull),
      outbox_(outbox),
      stats_(stats) {}

struct SkillGetter::GetState {
  Key key;
  GetOptions options;
  GetCallback done;
  // The newest version of each record and, for read repair, the seconds it has left as its
  // holders told (the longest; `told` false when none did).
  struct Newest {
    SignedRecordPtr record;
    uint32_t seconds_left = 0;
    bool told = false;
  };
  std::map<RecordIdentity, Newest> newest;
  // For read repair too: what each answering node held, and which answered in full.
  std::map<NodeId, std::vector<std::pair<RecordIdentity, uint64_t>>> held_by;
  // What this node's own store held when the get began (for GetOptions::copies).
  std::vector<std::pair<RecordIdentity, uint64_t>> held_here;
  std::set<NodeId> answered_in_full;
  size_t rejected = 0;
  size_t unavailable = 0;  // references not pulled
  size_t pending_pages = 0;
  size_t pending_pulls = 0;
  size_t pages = 0;
  bool lookup_done = false;
  bool finished = false;
  LookupStats stats;
  std::vector<Contact> closest;
  std::vector<std::vector<uint8_t>> tokens;  // closest's write tokens
  transport::TimePoint last_event = transport::kTimeZero;

  size_t live() const {
    return static_cast<size_t>(std::count_if(newest.begin(), newest.end(), [](const auto& entry) {
      return !entry.second.record->record.tombstone;
    }));
  }
  bool enough() const { return options.records_wanted > 0 && live() >= options.records_wanted; }
  void Merge(const SignedRecordPtr& record, std::optional<uint32_t> left = std::nullopt) {
    auto [it, inserted] = newest.try_emplace(IdentityOf(record->record), Newest{record});
    if (!inserted && record->record.sequence > it->second.record->record.sequence) {
      it->second = Newest{record};
    }
    if (left && record->record.sequence == it->second.record->record.sequence) {
      it->second.seconds_left = it->second.told ? std::max(it->second.seconds_left, *left) : *left;
      it->second.told = true;
    }
  }
};

bool SkillGetter::Get(transport::TimePoint now, const Key& key, const GetOptions& options,
                      GetCallback done) {
  ++stats_.gets_started;
  auto get = std::make_shared<GetState>();
  get->key = key;
  get->options = options;
  get->done = std::move(done);
  for (const StoredRecord* held : store_.Get(key)) {
    get->Merge(held->value, SecondsLeft(*held, now));
    if (options.copies) {
      get->held_here.emplace_back(IdentityOf(held->value->record), held->value->record.sequence);
    }
  }
  LookupOptions lookup;
  lookup.request = [key](const Key&) { return wire::FindValueBody{key, 0, {}}; };
  lookup.slow_retries = config_.get_slow_retries;
  lookup.closest_wanted = config_.lookup_closest;
  lookup.on_reply = [this, get](transport::TimePoint at, const Contact& from,
                                const wire::Message& reply) {
    if (const auto* values = std::get_if<wire::ValuesBody>(&reply.body))
      OnValues(get, at, from, *values);
    return get->enough();
  };
  return node_.StartLookup(now, key, std::move(lookup), [this, get](const LookupResult& result) {
    get->lookup_done = true;
    get->stats = result.stats;
    get->closest = result.closest;
    get->tokens = result.tokens;
    get->last_event = std::max(get->last_event, result.finished);
    FinishIfDone(get);
  });
}

void SkillGetter::OnValues(const std::shared_ptr<GetState>& get, transport::TimePoint now,
                           const Contact& from, const wire::ValuesBody& values) {
  get->held_by[from.id];  // it answered, even with nothing this get takes
  for (size_t i = 0; i < values.records.size(); ++i) {
    const wire::WireRecord& wire = values.records[i];
    const auto left =
        i < values.lifetimes.size() ? std::optional(values.lifetimes[i]) : std::nullopt;
    if (auto resolved = pull_.Resolve(wire)) {
      Take(*get, now, from.id, *resolved, left);
      continue;
    }
    // A reference to a record this node has no copy of: pulled from the node that answered.
    ++get->pending_pulls;
    const bool pulling =
        pull_.Pull(now, wire, wire::WireContact{from.id, from.endpoint},
                   [this, get, holder = from.id, left](
                       transport::TimePoint at, const transport::Result<SignedRecordPtr>& record) {
                     assert(get->pending_pulls > 0);
                     --get->pending_pulls;
                     Take(*get, at, holder, record, left);
                     get->last_event = std::max(get->last_event, at);
                     FinishIfDone(get);
                   });
    if (!pulling) {
      --get->pending_pulls;
      ++get->unavailable;
    }
  }
  if (!values.next) get->answered_in_full.insert(from.id);
  if (!values.next || get->enough() || get->pages >= kGetPagesMax || get->finished) return;
  ++get->pages;
  RequestPage(get, now, from, *values.next, 1);
}

void SkillGetter::Take(GetState& get, transport::TimePoint now, const NodeId& holder,
                       const transport::Result<SignedRecordPtr>& verified,
                       std::optional<uint32_t> left) {
  if (!verified) {
    // A pull that failed is a record this get could not have, not one it refused.
    ++(verified.error().code == transport::ErrorCode::kRefused ? get.unavailable : get.rejected);
    return;
  }
  if (!BelongsUnder((*verified)->record, get.key)) {
    ++get.rejected;
    return;
  }
  if (!window_.Check(now, (*verified)->record)) {
    ++get.rejected;
    ++stats_.records_outside_window;
    return;
  }
  if (!verifier_.Admit(**verified)) {
    ++get.rejected;
    ++stats_.records_uncertified;
    return;
  }
  get.held_by[holder].emplace_back(IdentityOf((*verified)->record), (*verified)->record.sequence);
  get.Merge(*verified, left);
}

void SkillGetter::RequestPage(const std::shared_ptr<GetState>& get, transport::TimePoint now,
                              const Contact& from, uint32_t cursor, size_t attempt) {
  ++get->pending_pages;
  const bool sent =
      node_.Request(now, from.endpoint, from.id, wire::FindValueBody{get->key, cursor, {}},
                    [this, get, from, cursor, attempt](const rpc::RpcResult& result) {
                      assert(get->pending_pages > 0);
                      --get->pending_pages;
                      if (result.status == rpc::RpcStatus::kReplied) {
                        if (const auto* more = std::get_if<wire::ValuesBody>(&result.reply->body)) {
                          OnValues(get, result.now, from, *more);
                        }
                      } else if (result.status == rpc::RpcStatus::kTimedOut &&
                                 attempt < config_.page_attempts_max && !get->finished) {
                        // A lost page would lose its records for this get: ask again.
                        ++stats_.pages_retried;
                        RequestPage(get, result.now, from, cursor, attempt + 1);
                      }
                      FinishIfDone(get);
                    });
  if (!sent) --get->pending_pages;
}

void SkillGetter::FinishIfDone(const std::shared_ptr<GetState>& get) {
  if (get->finished || !get->lookup_done || get->pending_pages > 0 || get->pending_pulls > 0) {
    return;
  }
  get->finished = true;
  GetResult result;
  result.key = get->key;
  result.rejected = get->rejected;
  result.unavailable = get->unavailable;
  result.stats = get->stats;
  result.closest = get->closest;
  result.finished = get->last_event;
  result.records.reserve(get->newest.size());
  for (auto& [identity, newest] : get->newest) result.records.push_back(newest.record);
  if (get->options.copies) result.copies = Copies(*get);
  ReadRepair(get, get->last_event);
  if (get->done) get->done(result);
}

std::vector<RecordCopies> SkillGetter::Copies(const GetState& get) {
  std::map<RecordIdentity, RecordCopies> found;
  const auto newest_held = [&get](const RecordIdentity& identity, uint64_t sequence) {
    const auto it = get.newest.find(identity);
    return it != get.newest.end() && sequence >= it->second.record->record.sequence;
  };
  for (const auto& [node, held] : get.held_by) {
    for (const auto& [identity, sequence] : held) {
      if (newest_held(identity, sequence)) found[identity].holders.push_back(node);
    }
  }
  for (const auto& [identity, sequence] : get.held_here) {
    if (newest_held(identity, sequence)) found[identity].held_here = true;
  }
  std::vector<RecordCopies> copies;
  copies.reserve(get.newest.size());
  for (const auto& [identity, newest] : get.newest) {  // the order of GetResult::records
    RecordCopies& copy = found[identity];
    // A node that sent a page twice (asked again after a timeout) counts once.
    std::sort(copy.holders.begin(), copy.holders.end());
    copy.holders.erase(std::unique(copy.holders.begin(), copy.holders.end()), copy.holders.end());
    if (newest.told) copy.seconds_left = newest.seconds_left;
    copies.push_back(std::move(copy));
  }
  return copies;
}

void SkillGetter::ReadRepair(const std::shared_ptr<GetState>& get, transport::TimePoint now) {
  if (config_.read_repair_stores_max == 0 || get->enough()) return;  // stopped short: partial
  // The r closest nodes that answered should hold every record under the key; when we are
  // closer than the r-th of them, we are one of the r ourselves.
  size_t places = std::min(config_.replication, get->closest.size());
  if (places > 0 && CloserTo(get->key, node_.id(), get->closest[places - 1].id)) --places;
  size_t stores = 0;
  for (size_t i = 0; i < places && i < get->tokens.size(); ++i) {
    const Contact& node = get->closest[i];
    if (get->tokens[i].empty() || !get->answered_in_full.contains(node.id)) continue;
    const auto& held = get->held_by[node.id];
    for (const auto& [identity, newest] : get->newest) {
      if (!newest.told) continue;  // no holder said how long it has left
      const SignedRecord& record = *newest.record;
      const uint64_t sequence = record.record.sequence;
      // identity is captured through an init-capture: clang before 16 cannot capture a
      // structured binding.
      if (std::any_of(held.begin(), held.end(), [&, &identity = identity](const auto& h) {
            return h.first == identity && h.second >= sequence;
          })) {
        continue;
      }
      if (stores++ == config_.read_repair_stores_max) return;
      // Every record a get keeps was checked to belong under its key, or held under it here.
      assert(BelongsUnder(record.record, get->key));
      ++stats_.read_repairs;
      node_.Request(now, node.endpoint, node.id,
                    wire::StoreBody{get->key, get->tokens[i], outbox_.ToWire(now, newest.record),
                                    newest.seconds_left},
                    nullptr);
    }
  }
}

}  // namespace skillnode::kademlia::store
