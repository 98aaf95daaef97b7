// The layout of every LAN message type (lan_message.h), written down once as a Fields template
// that walks a message's fields in wire order and hands each to a visitor with its name and
// rule. lan_message.cpp's Reader (text to struct) and Checker (the rules) and lan_encode.cpp's
// Writer (struct to text) are the visitors, so all three agree on the layout by construction.
// Every visitor has Text, List, Timestamp, Number, Signature (string or optional) and Skills.
// Internal to the LAN text codec; pure templates, no I/O.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_FIELDS_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_FIELDS_H_

#include <concepts>
#include <type_traits>

#include "discovery/lan/lan_message.h"
#include "discovery/lan/lan_text.h"

namespace skillnode::discovery::lan {

// M is U or const U: one template serves the visitors that fill a message and those that read it.
template <typename T, typename U>
concept Is = std::same_as<std::remove_const_t<T>, U>;

template <typename V, Is<Register> M>
void Fields(V& v, M& m) {
  v.Text("agentId", m.agent_id, kIdRule);
  v.Text("skillId", m.skill_id, kIdRule);
  v.Text("version", m.version, kVersionRule);
  v.Text("skillType", m.skill_type, kSkillTypeRule);
  v.Text("endpoint", m.endpoint, kEndpointRule);
  v.List("capabilities", m.capabilities, kLanCapabilitiesMax);
  v.List("scenes", m.scenes, kLanScenesMax);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

template <typename V, Is<RegisterAck> M>
void Fields(V& v, M& m) {
  v.Text("agentId", m.agent_id, kIdRule);
  v.Text("status", m.status, kEnumRule);
  v.Text("message", m.message, kMessageRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

template <typename V, Is<Unregister> M>
void Fields(V& v, M& m) {
  v.Text("agentId", m.agent_id, kIdRule);
  v.Text("skillId", m.skill_id, kIdRule);
  v.Text("reason", m.reason, kEnumRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

template <typename V, Is<Discover> M>
void Fields(V& v, M& m) {
  v.Text("requesterId", m.requester_id, kIdRule);
  v.Text("capabilityFilter", m.capability_filter, kNameFilterRule);
  v.Text("sceneFilter", m.scene_filter, kNameFilterRule);
  v.Text("typeFilter", m.type_filter, kTypeFilterRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

// One skill of a DISCOVER_RESPONSE; its parts are separated by '|'.
template <typename V, Is<DiscoveredSkill> M>
void Fields(V& v, M& m) {
  v.Text("skillId", m.skill_id, kIdRule);
  v.Text("version", m.version, kVersionRule);
  v.Text("endpoint", m.endpoint, kEndpointRule);
  v.List("capabilities", m.capabilities, kLanCapabilitiesMax);
  v.List("scenes", m.scenes, kLanScenesMax);
}

template <typename V, Is<DiscoverResponse> M>
void Fields(V& v, M& m) {
  v.Text("requesterId", m.requester_id, kIdRule);
  v.Skills(m.skills);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

template <typename V, typename M>
void HeartbeatFields(V& v, M& m) {
  v.Text("agentId", m.agent_id, kIdRule);
  v.Text("skillId", m.skill_id, kIdRule);
  v.Text("status", m.status, kEnumRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}
template <typename V, Is<Heartbeat> M>
void Fields(V& v, M& m) {
  HeartbeatFields(v, m);
}
template <typename V, Is<Status> M>
void Fields(V& v, M& m) {
  HeartbeatFields(v, m);
}

template <typename V, Is<Challenge> M>
void Fields(V& v, M& m) {
  v.Text("agentId", m.agent_id, kIdRule);
  v.Text("nonce", m.nonce, kNonceRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

template <typename V, Is<ChallengeResponse> M>
void Fields(V& v, M& m) {
  v.Text("agentId", m.agent_id, kIdRule);
  v.Text("nonce", m.nonce, kNonceRule);
  v.Text("certificates", m.certificates, kCertificatesRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

template <typename V, Is<Hello> M>
void Fields(V& v, M& m) {
  v.Text("nodeId", m.node_id, kNodeIdRule);
  v.Number("networkId", m.network_id);
  v.Number("dhtPort", m.dht_port);
  v.Text("httpUrl", m.http_url, kHttpUrlRule);
  v.Text("certificates", m.certificates, kCertificatesRule);
  v.Timestamp(m.timestamp_ms);
  v.Signature(m.signature);
}

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_FIELDS_H_
