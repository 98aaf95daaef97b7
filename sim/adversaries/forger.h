// Forger: the request handler of a forge_records adversary (scenario model (c)).
//
// The adversary runs a real Node and a real SkillDht, so it routes, takes STOREs and answers
// FIND_VALUE with genuine closer contacts and a genuine token. Before its VALUES reply leaves,
// the Forger replaces every record in it with forgeries: each genuine record it holds comes
// back with a raised sequence number and a new endpoint under the original signature (the
// publisher's key, the signature no longer matches); when it holds none, one record under the
// adversary's own key, validly signed but not belonging under the requested key. Honest
// verification must reject both kinds; the simulation counts the forgeries sent and those rejected.
// Not thread-safe.
#ifndef SKILLNODE_SIM_ADVERSARIES_FORGER_H_
#define SKILLNODE_SIM_ADVERSARIES_FORGER_H_

#include <cstdint>
#include <optional>

#include "kademlia/identity.h"
#include "kademlia/request_handler.h"
#include "kademlia/store/skill_dht.h"
#include "sim/adversaries/adversary.h"

namespace skillnode::sim::adversaries {

// The endpoint a forged record points to (where the adversary would like clients to go).
constexpr const char* kForgedEndpoint = "forged.invalid:1";
// A forged copy of a genuine record claims to be this many versions newer.
constexpr uint64_t kForgedSequenceStep = 1000;

class Forger final : public kademlia::RequestHandler {
 public:
  // Takes over `node`'s request handler from `dht`; both must outlive the forger.
  Forger(kademlia::Node& node, kademlia::store::SkillDht& dht, const kademlia::Identity& self,
         AdversaryCounters& counters);
  ~Forger() override;
  Forger(const Forger&) = delete;
  Forger& operator=(const Forger&) = delete;

  std::optional<kademlia::wire::Body> OnRequest(transport::TimePoint now,
                                                const transport::Endpoint& from,
                                                const kademlia::wire::Message& request) override;
  void OnContactAdded(transport::TimePoint now, const kademlia::Contact& contact) override;
  void OnContactEvicted(transport::TimePoint now, const kademlia::NodeId& id) override;
  void OnTimer(transport::TimePoint now) override;
  transport::TimePoint NextDeadline() const override;

 private:
  void Forge(kademlia::wire::ValuesBody& values);

  kademlia::Node& node_;
  kademlia::store::SkillDht& dht_;
  AdversaryCounters& counters_;
  // Signed once: a valid record of the adversary's own, published under no key it is sent for.
  std::optional<kademlia::store::SignedRecord> own_;
};

}  // namespace skillnode::sim::adversaries

#endif  // SKILLNODE_SIM_ADVERSARIES_FORGER_H_
