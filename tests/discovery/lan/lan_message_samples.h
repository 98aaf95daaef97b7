// Sample datagrams shared by the LAN message codec tests (lan_message_test.cpp and
// lan_message_malformed_test.cpp).
#ifndef SKILLNODE_TESTS_DISCOVERY_LAN_MESSAGE_SAMPLES_H_
#define SKILLNODE_TESTS_DISCOVERY_LAN_MESSAGE_SAMPLES_H_

#include <string>
#include <vector>

namespace skillnode::discovery::lan::message_test {

// The spec's example datagrams, byte for byte (§2.1, §3.1, §3.2, §13.1).
inline const std::vector<std::string> kSpecExamples = {
    "SKILL_REGISTER:agent-001;skill-org-feishu;0.7.0;enterprise-skill;192.168.1.100:8080;"
    "org-data-read,user-auth;auth;1707868800000;a1b2c3d4e5f6...",
    "SKILL_DISCOVER:agent-002;org-data-read;auth;enterprise-skill;1707868800000",
    "SKILL_DISCOVER_RESPONSE:agent-002;skill-org-feishu|0.7.0|192.168.1.100:8080|"
    "org-data-read,user-auth|auth;skill-org-dingding|0.7.0|192.168.1.101:8080|"
    "org-data-read,user-auth|auth;1707868800000",
    "SKILL_REGISTER:agent-001;skill-org-feishu;0.7.0;enterprise-skill;192.168.1.100:8080;"
    "org-data-read,user-auth;auth;1707868800000;MEUCIQDxxx...",
    "SKILL_DISCOVER:agent-002;org-data-read;auth;enterprise-skill;1707868800000",
    "SKILL_HEARTBEAT:agent-001;skill-org-feishu;HEALTHY;1707868805000;MEUCIQDxxx...",
};

inline const std::string kNodeId(64, 'a');

}  // namespace skillnode::discovery::lan::message_test

#endif  // SKILLNODE_TESTS_DISCOVERY_LAN_MESSAGE_SAMPLES_H_
