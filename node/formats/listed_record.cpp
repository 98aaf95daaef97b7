#include "node/formats/listed_record.h"

#include "discovery/query.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::node::formats {

std::string_view RecordSourceName(RecordSource source) {
  switch (source) {
    case RecordSource::kLocal:
      return "local";
    case RecordSource::kDht:
      return "dht";
  }
  return "dht";
}

nlohmann::json ProvenanceJson(const ListedRecord& listed) {
  using kademlia::wire::HexEncode;
  const kademlia::store::SkillRecord& record = listed.record;
  nlohmann::json out = {
      {"publisherKey", HexEncode(record.publisher)},
      {"publisherNodeId", kademlia::NodeIdOf(record.publisher).ToHex()},
      {"source", RecordSourceName(listed.source)},
      {"sequence", record.sequence},
      {"agentId", record.agent_id},
      {"skillId", record.skill_id},
  };
  if (listed.signature && !listed.encoded.empty()) {
    out["signatureAlgorithm"] = "Ed25519";
    out["signature"] = HexEncode(*listed.signature);
    out["signedRecord"] = kademlia::wire::Base64Encode(listed.encoded);
  }
  if (!listed.domain_claims.is_null()) out["publisherDomains"] = listed.domain_claims;
  return out;
}

bool VisibleTo(const ListedRecord& listed, bool authenticated) {
  return authenticated || !discovery::IsPrivate(listed.record);
}

}  // namespace skillnode::node::formats
