// The text of GET /api/v1/discovery/capabilities in its three formats (discovery-api-
// capabilities §3.4 JSON, §3.5 XML, §3.6 compact), written as fragments once per snapshot.
//
// An item (a reasoner or a skill) is a list of fragments per format; a fragment that needs an
// include flag (description, input_schema, output_schema, examples) is emitted only when the
// request sets it, so a request concatenates fragments and never serialises a record. Schemas
// and examples are JSON text in the record: JSON gets them as JSON values (text that does not
// parse stays a string), XML gets a schema's properties as <field> elements (name, type,
// required="true", min/max/default from minimum/maximum/default, the description as text).
// Every XML text and attribute is escaped, and bytes that are not UTF-8 or not allowed in
// XML 1.0 are replaced. nlohmann::json is used here only, while a snapshot is built. Pure.
#ifndef SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_FORMAT_H_
#define SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/capabilities/capability_filter.h"
#include "discovery/skill_json.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::capabilities {

// Emitted when the request's include mask has every bit of `needs` (0: always).
struct Fragment {
  uint8_t needs = 0;
  std::string text;
};
using Fragments = std::vector<Fragment>;

struct ItemText {
  Fragments json;
  Fragments xml;
  Fragments compact;
};

// The fragments of one registration; `reasoner` picks the element name and the invocation
// target ("{agent_id}:{id}" for a reasoner, "{agent_id}:skill:{id}" for a skill).
ItemText ItemFragments(const kademlia::store::SkillRecord& record, Source source, bool reasoner);

// What an agent's header says (over the registrations a view holds).
struct AgentFacts {
  std::string agent_id;
  std::string base_url;
  std::string version;
  Health health = Health::kInactive;
  uint64_t last_heartbeat_ms = 0;
};
// JSON: `{"agent_id":...,"last_heartbeat":"...","reasoners":[` (the renderer closes it).
std::string AgentJsonHead(const AgentFacts& facts);
// XML: `<agent id=... last_heartbeat="..."><reasoners>`.
std::string AgentXmlHead(const AgentFacts& facts);

// The endpoint as a base URL: scheme and authority, "http://" put in front when it has no
// scheme, the path dropped ("10.0.0.5:8080/api" -> "http://10.0.0.5:8080").
std::string BaseUrlOf(std::string_view endpoint);
// RFC 3339 in UTC with seconds: "2025-11-23T10:29:45Z".
std::string Rfc3339(uint64_t unix_ms);
// A JSON string literal, quotes included (invalid UTF-8 replaced).
std::string JsonString(std::string_view text);
// Text for an XML attribute value or element content.
std::string XmlEscape(std::string_view text);

}  // namespace skillnode::discovery::capabilities

#endif  // SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_FORMAT_H_
