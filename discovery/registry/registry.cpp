// The Registry (discovery/registry/registry.h): registering, heartbeats and health,
// unregistering, signing and publishing versions; its lookups are its RegistryLookup's.
#include "discovery/registry/registry.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <memory>
#include <string>
#include <vector>

namespace skillnode::discovery {

using kademlia::store::SkillRecord;
using kademlia::store::SkillStatus;
using kademlia::store::UnregisterReason;

std::string_view RegisterStatusName(RegisterStatus status) {
  switch (status) {
    case RegisterStatus::kSuccess:
      return "SUCCESS";
    case RegisterStatus::kDuplicate:
      return "DUPLICATE";
    case RegisterStatus::kInvalid:
      return "INVALID";
    case RegisterStatus::kUnauthorized:
      return "UNAUTHORIZED";
  }
  return "INVALID";
}

bool SameContent(const SkillRecord& a, const SkillRecord& b) {
  return a.agent_id == b.agent_id && a.skill_id == b.skill_id && a.version == b.version &&
         a.skill_type == b.skill_type && a.endpoint == b.endpoint &&
         a.capabilities == b.capabilities && a.scenes == b.scenes && a.descriptor == b.descriptor;
}

namespace {

// "capabilities: too many (17, at most 16)" -> "capabilities"; ValidateRecord's messages start
// with the field's name.
std::string FieldOf(const std::string& message) {
  const size_t colon = message.find(':');
  std::string field = colon == std::string::npos ? std::string() : message.substr(0, colon);
  const size_t bracket = field.find('[');
  if (bracket != std::string::npos) field.resize(bracket);
  return field;
}

}  // namespace

Registry::Registry(kademlia::store::SkillDht& dht, const kademlia::Identity& publisher,
                   const RegistryConfig& config, WallClockMs wall_clock_ms)
    : dht_(dht),
      publisher_(publisher),
      config_(config),
      wall_clock_ms_(std::move(wall_clock_ms)),
      // English is always there (libstemmer has it): only a broken build fails here.
      analyzer_(text::Analyzer::Create().value()),
      lookup_(analyzer_, [this](const std::function<void(RegistryLookup::Slot)>& visit) {
        // The map is in (skillId, agentId) order, the order the lookup's walk must have.
        for (const auto& entry : registrations_) visit(&entry.second.entry);
      }) {
  // The DHT signs a live record again before its validity window ends: the registration keeps
  // the version the network holds, and later versions number above it.
  dht_.SetResignedObserver([this](const kademlia::store::SignedRecord& resigned) {
    const kademlia::store::SkillRecord& record = resigned.record;
    if (record.publisher != publisher_.public_key()) return;  // not one of ours
    last_sequence_ = std::max(last_sequence_, record.sequence);
    last_timestamp_ = std::max(last_timestamp_, record.timestamp_ms);
    auto it = registrations_.find(Id{record.skill_id, record.agent_id});
    if (it == registrations_.end() || it->second.record().sequence >= record.sequence) return;
    it->second.entry = SkillEntry::Make(record);
  });
}

Registry::~Registry() { dht_.SetResignedObserver(nullptr); }

RegisterOutcome Registry::Register(transport::TimePoint now, SkillRecord fields) {
  RegisterOutcome out;
  fields.status = SkillStatus::kHealthy;
  fields.tombstone = false;
  fields.reason = UnregisterReason::kNone;
  fields.ttl_seconds = config_.record_ttl_seconds;
  fields.publisher = publisher_.public_key();
  fields.publisher_certificate = config_.publisher_certificate;
  fields.publisher_domains = config_.publisher_domains;
  fields.timestamp_ms = wall_clock_ms_();
  fields.sequence = last_sequence_ + 1;  // validated as it will be published
  if (auto valid = kademlia::store::ValidateRecord(fields); !valid) {
    ++stats_.invalid;
    out.status = RegisterStatus::kInvalid;
    out.message = valid.error().message;
    out.field = FieldOf(out.message);
    return out;
  }
  if (!CheckRegistration(fields, out)) {
    ++stats_.invalid;
    return out;
  }
  const Id id{fields.skill_id, fields.agent_id};
  auto it = registrations_.find(id);
  if (it != registrations_.end() && SameContent(it->second.record(), fields) &&
      !it->second.health.expired()) {
    ++stats_.duplicates;
    // A repeated registration also proves the skill is alive.
    if (it->second.health.OnHeartbeat(now, SkillStatus::kHealthy) ==
        HealthMachine::Change::kStatusChanged) {
      SkillRecord next = it->second.record();
      next.status = it->second.health.status();
      PublishVersion(now, it->second, std::move(next), nullptr);
      Notify(RegistryEvent::Kind::kStatusChanged, it->second.record());
    }
    Schedule(it);
    out.status = RegisterStatus::kDuplicate;
    out.message = "already registered with the same content";
    out.record = it->second.record();
    return out;
  }
  bool was_private = false;
  if (it == registrations_.end()) {
    if (registrations_.size() >= config_.registrations_max) {
      ++stats_.refused_full;
      out.status = RegisterStatus::kInvalid;
      out.field = "skillId";
      out.message = "this node holds its maximum of " + std::to_string(config_.registrations_max) +
                    " registrations";
      return out;
    }
    auto agent = per_agent_.find(fields.agent_id);
    if (agent != per_agent_.end() && agent->second >= config_.registrations_per_agent_max) {
      ++stats_.refused_full;
      out.status = RegisterStatus::kInvalid;
      out.field = "agentId";
      out.message = "agent " + fields.agent_id + " has its maximum of " +
                    std::to_string(config_.registrations_per_agent_max) + " registrations";
      return out;
    }
    ++per_agent_[fields.agent_id];
    it = registrations_
             .emplace(id, Registration{SkillEntry::Make(fields), HealthMachine(config_.health, now),
                                       transport::kTimeNever})
             .first;
    ++stats_.registered;
  } else {
    out.updated = true;
    was_private = IsPrivate(it->second.record());
    if (!was_private && IsPrivate(fields)) {
      // The public version leaves the DHT before the private one takes its place here.
      SkillRecord tombstone = it->second.record();
      tombstone.tombstone = true;
      tombstone.reason = UnregisterReason::kUpgrade;
      PublishVersion(now, tombstone, nullptr);
    }
    lookup_.Unindex(&it->second.entry);
    // Indexed by its new fields at once; signed and published below.
    it->second.entry = SkillEntry::Make(fields);
    it->second.health = HealthMachine(config_.health, now);
    ++stats_.updated;
  }
  lookup_.Index(&it->second.entry);
  assert(lookup_.size() == registrations_.size());
  Schedule(it);
  PublishVersion(now, it->second, std::move(fields), nullptr);
  Notify(out.updated ? RegistryEvent::Kind::kUpdated : RegistryEvent::Kind::kRegistered,
         it->second.record(), was_private);
  out.status = RegisterStatus::kSuccess;
  out.message = out.updated ? "registration updated" : "registered";
  out.record = it->second.record();
  return out;
}

transport::Result<SkillRecord> Registry::Heartbeat(transport::TimePoint now,
                                                   std::string_view agent_id,
                                                   std::string_view skill_id, SkillStatus status) {
  auto it = registrations_.find(Id{std::string(skill_id), std::string(agent_id)});
  if (it == registrations_.end()) {
    ++stats_.heartbeats_unknown;
    return transport::Fail(transport::ErrorCode::kNotFound,
                           "no registration of skill " + std::string(skill_id) + " by agent " +
                               std::string(agent_id) + " on this node (register first)");
  }
  ++stats_.heartbeats;
  if (it->second.health.OnHeartbeat(now, status) == HealthMachine::Change::kStatusChanged) {
    ++stats_.status_changes;
    SkillRecord next = it->second.record();
    next.status = it->second.health.status();
    PublishVersion(now, it->second, std::move(next), nullptr);
    Notify(RegistryEvent::Kind::kStatusChanged, it->second.record());
  }
  Schedule(it);
  return it->second.record();
}

transport::Result<SkillRecord> Registry::Unregister(transport::TimePoint now,
                                                    std::string_view agent_id,
                                                    std::string_view skill_id,
                                                    UnregisterReason reason) {
  auto it = registrations_.find(Id{std::string(skill_id), std::string(agent_id)});
  if (it == registrations_.end()) {
    return transport::Fail(transport::ErrorCode::kNotFound,
                           "no registration of skill " + std::string(skill_id) + " by agent " +
                               std::string(agent_id) + " on this node");
  }
  SkillRecord last = it->second.record();
  ++stats_.unregistered;
  Remove(now, it, reason, RegistryEvent::Kind::kUnregistered, nullptr);
  return last;
}

void Registry::UnregisterAll(transport::TimePoint now, UnregisterReason reason,
                             std::function<void()> done) {
  auto pending = std::make_shared<size_t>(registrations_.size() + 1);
  auto finish = [pending, done = std::move(done)] {
    if (--*pending == 0 && done) done();
  };
  while (!registrations_.empty()) {
    ++stats_.unregistered;
    Remove(now, registrations_.begin(), reason, RegistryEvent::Kind::kUnregistered, finish);
  }
  finish();
}

void Registry::Remove(transport::TimePoint now, std::map<Id, Registration>::iterator it,
                      UnregisterReason reason, RegistryEvent::Kind kind,
                      std::function<void()> done) {
  SkillRecord tombstone = it->second.record();
  tombstone.tombstone = true;
  tombstone.reason = reason;
  auto agent = per_agent_.find(tombstone.agent_id);
  if (agent != per_agent_.end() && --agent->second == 0) per_agent_.erase(agent);
  due_.erase({it->second.scheduled, it->first});
  lookup_.Unindex(&it->second.entry);
  registrations_.erase(it);
  assert(lookup_.size() == registrations_.size());
  PublishVersion(now, tombstone, std::move(done));
  Notify(kind, tombstone);
}

void Registry::OnTimer(transport::TimePoint now) {
  while (!due_.empty() && due_.begin()->first <= now) {
    auto current = registrations_.find(due_.begin()->second);
    due_.erase(due_.begin());
    current->second.scheduled = transport::kTimeNever;
    switch (current->second.health.OnTimer(now)) {
      case HealthMachine::Change::kNone:
        Schedule(current);
        break;
      case HealthMachine::Change::kStatusChanged: {
        ++stats_.status_changes;
        SkillRecord next = current->second.record();
        next.status = current->second.health.status();
        PublishVersion(now, current->second, std::move(next), nullptr);
        Notify(RegistryEvent::Kind::kStatusChanged, current->second.record());
        Schedule(current);
        break;
      }
      case HealthMachine::Change::kExpired:
        ++stats_.expired;
        Remove(now, current, UnregisterReason::kError, RegistryEvent::Kind::kExpired, nullptr);
        break;
    }
  }
}

transport::TimePoint Registry::NextDeadline() const {
  return due_.empty() ? transport::kTimeNever : due_.begin()->first;
}

void Registry::Schedule(std::map<Id, Registration>::iterator it) {
  due_.erase({it->second.scheduled, it->first});
  it->second.scheduled = it->second.health.NextDeadline();
  if (it->second.scheduled != transport::kTimeNever) due_.insert({it->second.scheduled, it->first});
}

bool Registry::CheckRegistration(const SkillRecord& fields, RegisterOutcome& out) const {
  out.status = RegisterStatus::kInvalid;
  if (fields.descriptor) {
    const std::string& access = fields.descriptor->access;
    if (!access.empty() && access != "public" && access != "restricted" && access != "private") {
      out.field = "descriptor.access";
      out.message =
          "descriptor.access: must be public, restricted or private, got '" + access + "'";
      return false;
    }
  }
  const std::string index_id = IndexId(fields);
  if (const SkillRecord* other = lookup_.FindByIndexId(index_id); other != nullptr) {
    const SkillRecord& taken = *other;
    if (taken.agent_id != fields.agent_id || taken.skill_id != fields.skill_id) {
      out.field = "skillId";
      out.message = "skillId: the index id " + index_id + " of agent " + fields.agent_id +
                    "'s skill " + fields.skill_id + " is already the id of agent " +
                    taken.agent_id + "'s skill " + taken.skill_id +
                    " on this node (ids in a skill index must be unique)";
      return false;
    }
  }
  out.status = RegisterStatus::kSuccess;
  return true;
}

std::vector<SkillRecord> Registry::Records() const {
  std::vector<SkillRecord> out;
  out.reserve(registrations_.size());
  for (const auto& [id, registration] : registrations_) out.push_back(registration.record());
  return out;
}

std::array<size_t, 4> Registry::CountByStatus() const {
  std::array<size_t, 4> counts{};
  for (const auto& [id, registration] : registrations_) {
    ++counts[static_cast<size_t>(registration.record().status)];
  }
  return counts;
}

uint64_t Registry::NextSequence() {
  last_sequence_ = std::max(last_sequence_ + 1, wall_clock_ms_());
  return last_sequence_;
}

void Registry::PublishVersion(transport::TimePoint now, SkillRecord& record,
                              std::function<void()> done) {
  record.sequence = NextSequence();
  // Never before any version this node signed, even if the clock stepped back: a tombstone's
  // validity window must end after those of the versions it removes (docs/security.md
  // "Replay").
  last_timestamp_ = std::max(last_timestamp_, wall_clock_ms_());
  record.timestamp_ms = last_timestamp_;
  auto signed_record = kademlia::store::SignRecord(record, publisher_);
  // Register validated the same fields; only a programmer error can fail here.
  assert(signed_record.has_value());
  if (!signed_record) {
    if (done) done();
    return;
  }
  record = signed_record->record;
  if (IsPrivate(record)) {
    // Private skills never leave this node: no DHT record, no tombstone.
    if (done) done();
    return;
  }
  // A tombstone is republished by the DHT until the record's TTL has passed; the registry
  // keeps nothing of it.
  // A live version goes with the terms it is indexed under; a tombstone buries them.
  dht_.Publish(
      now, *signed_record,
      [this, done = std::move(done)](const kademlia::store::PublishResult& result) {
        if (result.stored == 0) ++stats_.publish_failures;
        if (done) done();
      },
      IndexTermsOf(analyzer_, extractor_, record));
}

void Registry::PublishVersion(transport::TimePoint now, Registration& registration,
                              SkillRecord record, std::function<void()> done) {
  PublishVersion(now, record, std::move(done));
  registration.entry = SkillEntry::Make(std::move(record));
}

void Registry::Notify(RegistryEvent::Kind kind, const SkillRecord& record, bool was_private) {
  ++changes_;
  const RegistryEvent event{kind, record, was_private};
  for (const RegistryObserver& observer : observers_) observer(event);
}

}  // namespace skillnode::discovery
