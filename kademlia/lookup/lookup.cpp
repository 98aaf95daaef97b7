#include "kademlia/lookup/lookup.h"

#include <algorithm>
#include <utility>

namespace skillnode::kademlia {
namespace {

// Each path keeps this many times k candidates; farther ones cannot matter to the result and
// dropping them bounds memory however many contacts adversaries return.
constexpr size_t kShortlistFactor = 3;

}  // namespace

Lookup::Lookup(const Key& target, const NodeId& self, const LookupParams& params,
               std::span<const Contact> start, transport::TimePoint now)
    : target_(target), self_(self), params_(params), started_(now) {
  paths_.resize(std::max<size_t>(1, params_.paths));
  size_t next_path = 0;
  std::vector<Contact> sorted(start.begin(), start.end());
  std::sort(sorted.begin(), sorted.end(),
            [&](const Contact& a, const Contact& b) { return CloserTo(target_, a.id, b.id); });
  for (const Contact& contact : sorted) {
    if (contact.id == self_ || !Learn(contact)) continue;
    Insert(next_path, contact, 1);
    next_path = (next_path + 1) % paths_.size();
  }
}

void Lookup::Insert(size_t path, const Contact& contact, int hop) {
  auto& entries = paths_[path].entries;
  auto at = std::lower_bound(
      entries.begin(), entries.end(), contact.id,
      [&](const Entry& e, const NodeId& id) { return CloserTo(target_, e.contact.id, id); });
  Entry entry;
  entry.contact = contact;
  entry.hop = hop;
  entries.insert(at, std::move(entry));
  const size_t limit = kShortlistFactor * params_.k;
  // Trim the far end, but never forget a contact we are waiting on.
  while (entries.size() > limit && entries.back().state != State::kInFlight) entries.pop_back();
}

bool Lookup::Converged(const Path& path) {
  for (const Entry& e : path.entries) {
    if (e.state == State::kFailed || e.state == State::kSlow) continue;
    return e.state == State::kSucceeded;  // the closest contact that may still answer
  }
  return false;
}

size_t Lookup::InFlight(const Path& path) const {
  return static_cast<size_t>(
      std::count_if(path.entries.begin(), path.entries.end(),
                    [](const Entry& e) { return e.state == State::kInFlight; }));
}

bool Lookup::PathDone(const Path& path) const {
  size_t live = 0;
  for (const Entry& e : path.entries) {
    if (e.state == State::kFailed || e.state == State::kSlow) continue;
    if (e.state != State::kSucceeded) return false;
    if (++live == params_.k) return true;
  }
  return true;  // fewer than k live contacts exist and all have answered
}

std::vector<Lookup::Query> Lookup::NextQueries(transport::TimePoint now,
                                               transport::Duration slow_after) {
  return NextQueries(now, [slow_after](const Contact&) { return slow_after; });
}

std::vector<Lookup::Query> Lookup::NextQueries(transport::TimePoint now,
                                               const SlowAfter& slow_after) {
  std::vector<Query> queries;
  if (stopped_) return queries;
  for (size_t p = 0; p < paths_.size(); ++p) {
    Path& path = paths_[p];
    size_t in_flight = InFlight(path);
    size_t closer_in_flight = 0;  // in flight to contacts closer to the target than `e`
    const size_t parallel = params_.final_round && Converged(path) ? params_.k : params_.alpha;
    size_t live = 0;
    for (Entry& e : path.entries) {
      // `parallel` slots, and extra_slots more for a contact that fewer than `parallel` of
      // the queries in flight are closer than.
      const bool busy = in_flight >= parallel + params_.extra_slots || closer_in_flight >= parallel;
      if (busy || stats_.messages >= params_.requests_max) break;
      if (e.state == State::kFailed || e.state == State::kSlow) continue;
      if (++live > params_.k) break;
      if (e.state == State::kInFlight) ++closer_in_flight;
      if (e.state != State::kCandidate) continue;
      e.state = State::kInFlight;
      const transport::Duration wait = slow_after(e.contact);
      e.slow_at = wait >= transport::kTimeNever - now ? transport::kTimeNever : now + wait;
      stats_.retries += e.sent > 0;
      ++e.sent;
      ++e.open;
      ++in_flight;
      ++closer_in_flight;
      ++stats_.messages;
      next_slow_ = std::min(next_slow_, e.slow_at);  // a query more in flight
      queries.push_back(Query{e.contact.id, e.contact.endpoint, p});
    }
  }
  return queries;
}

bool Lookup::Answered(const NodeId& id) const {
  size_t path = 0;
  const Entry* entry = FindEntry(id, &path);
  return entry != nullptr && entry->state == State::kSucceeded;
}

bool Lookup::Waiting(const Entry& e) {
  return e.state == State::kInFlight || e.state == State::kSlow ||
         (e.state == State::kCandidate && e.open > 0);
}

const Lookup::Entry* Lookup::FindEntry(const NodeId& id, size_t* path) const {
  for (size_t p = 0; p < paths_.size(); ++p) {
    for (const Entry& e : paths_[p].entries) {
      if (e.contact.id == id) {
        *path = p;
        return &e;
      }
    }
  }
  return nullptr;
}

Lookup::Entry* Lookup::FindEntry(const NodeId& id, size_t* path) {
  return const_cast<Entry*>(std::as_const(*this).FindEntry(id, path));
}

bool Lookup::Learn(const Contact& contact) {
  auto at = std::lower_bound(seen_.begin(), seen_.end(), contact.id,
                             [](const Seen& s, const NodeId& id) { return s.id < id; });
  if (at == seen_.end() || at->id != contact.id) {
    seen_.insert(at, Seen{contact.id, contact.endpoint});
    return true;
  }
  // Named again at the address first learnt (the common case): nothing to do.
  if (at->endpoint != contact.endpoint) AddAlternate(contact.id, contact.endpoint);
  return false;
}

void Lookup::AddAlternate(const NodeId& id, const transport::Endpoint& endpoint) {
  size_t path = 0;
  Entry* entry = FindEntry(id, &path);
  if (entry == nullptr || entry->state == State::kSucceeded ||
      entry->contact.endpoint == endpoint) {
    return;
  }
  auto& alternates = entry->alternates;
  if (alternates.size() == kAlternatesMax ||
      std::find(alternates.begin(), alternates.end(), endpoint) != alternates.end()) {
    return;
  }
  alternates.push_back(endpoint);
  // Already given up at its address: ask at this one now.
  if (entry->state == State::kFailed && entry->open == 0) TryAlternate(*entry);
}

bool Lookup::TryAlternate(Entry& entry) {
  if (entry.alternates.empty()) return false;
  entry.contact.endpoint = entry.alternates.front();
  entry.alternates.erase(entry.alternates.begin());
  entry.contact.rtt = {};
  entry.contact.rtt_deviation = {};
  entry.state = State::kCandidate;
  entry.slow_at = transport::kTimeNever;
  entry.sent = 0;
  return true;
}

void Lookup::OnReply(const NodeId& id, const PublicKey& key,
                     std::span<const wire::WireContact> closer, std::span<const uint8_t> token,
                     transport::TimePoint now) {
  size_t path = 0;
  Entry* entry = FindEntry(id, &path);
  if (entry == nullptr || !Waiting(*entry)) return;
  next_slow_known_ = false;
  entry->state = State::kSucceeded;
  entry->contact.public_key = key;
  entry->contact.last_seen = now;
  entry->token.assign(token.begin(), token.end());
  ++stats_.replies;
  const int hop = entry->hop + 1;
  for (const wire::WireContact& c : closer) {
    if (c.id == self_) continue;
    Contact contact;
    contact.id = c.id;
    contact.endpoint = c.endpoint;
    if (Learn(contact)) Insert(path, contact, hop);
  }
}

void Lookup::OnFailure(const NodeId& id) {
  size_t path = 0;
  Entry* entry = FindEntry(id, &path);
  if (entry == nullptr || !Waiting(*entry)) return;
  next_slow_known_ = false;
  if (entry->open > 0) --entry->open;
  // An earlier request's timeout while the retry is out (or about to go): wait for that one.
  if (entry->open > 0 || entry->state == State::kCandidate) return;
  ++stats_.failures;
  // Named at another address too: ask there, as a new contact.
  if (!TryAlternate(*entry)) entry->state = State::kFailed;
}

bool Lookup::ExpireSlow(transport::TimePoint now) {
  bool any = false;
  for (Path& path : paths_) {
    size_t live = 0;  // rank among the contacts that may still answer
    for (Entry& e : path.entries) {
      if (e.state == State::kFailed || e.state == State::kSlow) continue;
      ++live;
      if (e.state != State::kInFlight || e.slow_at > now) continue;
      any = true;
      if (live <= std::min(params_.k, params_.slow_retry_rank) && e.sent <= params_.slow_retries) {
        e.state = State::kCandidate;  // NextQueries sends it again
        e.slow_at = transport::kTimeNever;
      } else {
        e.state = State::kSlow;
        ++stats_.slow;
      }
    }
  }
  if (any) next_slow_known_ = false;
  return any;
}

transport::TimePoint Lookup::NextSlowDeadline() const {
  if (stopped_) return transport::kTimeNever;
  if (next_slow_known_) return next_slow_;
  transport::TimePoint next = transport::kTimeNever;
  for (const Path& path : paths_) {
    for (const Entry& e : path.entries) {
      if (e.state == State::kInFlight) next = std::min(next, e.slow_at);
    }
  }
  next_slow_ = next;
  next_slow_known_ = true;
  return next;
}

bool Lookup::done() const {
  if (stopped_) return true;
  bool waiting = false;
  bool all_done = true;
  for (const Path& path : paths_) {
    waiting |= InFlight(path) > 0;
    all_done &= PathDone(path);
  }
  if (all_done) return true;
  return stats_.messages >= params_.requests_max && !waiting;
}

LookupResult Lookup::Result(transport::TimePoint now) const {
  LookupResult result;
  result.target = target_;
  std::vector<const Entry*> answered;
  for (const Path& path : paths_) {
    for (const Entry& e : path.entries) {
      if (e.state == State::kSucceeded) answered.push_back(&e);
    }
  }
  std::sort(answered.begin(), answered.end(), [&](const Entry* a, const Entry* b) {
    return CloserTo(target_, a->contact.id, b->contact.id);
  });
  if (answered.size() > params_.k) answered.resize(params_.k);
  for (const Entry* e : answered) {
    result.closest.push_back(e->contact);
    result.tokens.push_back(e->token);
  }
  result.stats = stats_;
  result.stats.hops = answered.empty() ? 0 : answered.front()->hop;
  result.stats.duration = now - started_;
  result.finished = now;
  return result;
}

}  // namespace skillnode::kademlia
