#include "sim/adversaries/forger.h"

#include <utility>

namespace skillnode::sim::adversaries {
namespace {

// The adversary's own record: a minimal valid skill, signed with the adversary's key.
std::optional<kademlia::store::SignedRecord> OwnRecord(
    const kademlia::Identity& self, const kademlia::SignatureScheme& signatures) {
  kademlia::store::SkillRecord record;
  record.agent_id = "forger";
  record.skill_id = "forged-skill";
  record.version = "1.0.0";
  record.skill_type = "tool-skill";
  record.endpoint = kForgedEndpoint;
  record.capabilities = {"forged"};
  record.sequence = 1;
  record.ttl_seconds = kademlia::store::kRecordTtlMaxSeconds;
  auto signed_record = kademlia::store::SignRecord(std::move(record), self, signatures);
  if (!signed_record) return std::nullopt;
  return std::move(*signed_record);
}

}  // namespace

Forger::Forger(kademlia::Node& node, kademlia::store::SkillDht& dht, const kademlia::Identity& self,
               AdversaryCounters& counters)
    : node_(node), dht_(dht), counters_(counters), own_(OwnRecord(self, node.signatures())) {
  node_.SetRequestHandler(this);
}

Forger::~Forger() { node_.SetRequestHandler(&dht_); }

std::optional<kademlia::wire::Body> Forger::OnRequest(transport::TimePoint now,
                                                      const transport::Endpoint& from,
                                                      const kademlia::wire::Message& request) {
  auto body = dht_.OnRequest(now, from, request);
  if (body) {
    if (auto* values = std::get_if<kademlia::wire::ValuesBody>(&*body)) Forge(*values);
  }
  return body;
}

void Forger::Forge(kademlia::wire::ValuesBody& values) {
  std::vector<kademlia::wire::WireRecord> forged;
  for (const kademlia::wire::WireRecord& genuine : values.records) {
    auto decoded = kademlia::store::DecodeRecord(genuine.encoded);
    if (!decoded) continue;
    decoded->sequence += kForgedSequenceStep;
    decoded->endpoint = kForgedEndpoint;
    // The publisher's old signature over new bytes: it cannot verify.
    forged.push_back(
        kademlia::wire::WireRecord{kademlia::store::EncodeRecord(*decoded), genuine.signature});
  }
  // With nothing genuine to copy, the adversary's own record (a page stays within its size).
  if (own_ && forged.empty()) {
    forged.push_back(kademlia::wire::WireRecord{own_->encoded, own_->signature});
  }
  counters_.records_forged += forged.size();
  values.records = std::move(forged);
  values.total = static_cast<uint32_t>(values.records.size());
  values.next.reset();
}

void Forger::OnContactAdded(transport::TimePoint now, const kademlia::Contact& contact) {
  dht_.OnContactAdded(now, contact);
}

void Forger::OnContactEvicted(transport::TimePoint now, const kademlia::NodeId& id) {
  dht_.OnContactEvicted(now, id);
}

void Forger::OnTimer(transport::TimePoint now) { dht_.OnTimer(now); }

transport::TimePoint Forger::NextDeadline() const { return dht_.NextDeadline(); }

}  // namespace skillnode::sim::adversaries
