// Test helpers for skill records: a valid record to start from (small, with a descriptor, or
// too large to travel inline) and a signed copy.
#ifndef SKILLNODE_TESTS_SUPPORT_RECORDS_H_
#define SKILLNODE_TESTS_SUPPORT_RECORDS_H_

#include <string>

#include "kademlia/store/record/skill_record.h"

namespace skillnode::testing {

inline kademlia::store::SkillRecord SampleRecord(const std::string& agent = "agent-001",
                                                 const std::string& skill = "skill-org-feishu") {
  kademlia::store::SkillRecord r;
  r.agent_id = agent;
  r.skill_id = skill;
  r.version = "0.7.0";
  r.skill_type = "enterprise-skill";
  r.endpoint = "192.168.1.100:8080";
  r.capabilities = {"org-data-read", "user-auth"};
  r.scenes = {"auth"};
  r.timestamp_ms = 1707868800000;
  r.sequence = 1;
  r.ttl_seconds = 3600;
  return r;
}

// SampleRecord with a descriptor (every descriptor field but the folder archive's) and a status.
inline kademlia::store::SkillRecord FullRecord() {
  kademlia::store::SkillRecord r = SampleRecord();
  kademlia::store::SkillDescriptor d;
  d.name = "Feishu Organization Service";
  d.description = "Reads the organisation chart; answers user-auth challenges.";
  d.capability_type = "data";
  d.access = "public";
  d.tags = {"org", "feishu"};
  d.input_schema = R"({"type":"object"})";
  d.output_schema = R"({"type":"array"})";
  d.examples = {R"({"dept":"sales"})"};
  d.skill_md_sha256 = kademlia::Key::Sha256("# SKILL.md").bytes();
  r.descriptor = d;
  r.status = kademlia::store::SkillStatus::kDegraded;
  return r;
}

// A record too large to travel inline (docs/protocol.md "Records larger than a datagram"): a
// description of 1,024 CJK characters (3,072 bytes) and an object example.
inline kademlia::store::SkillRecord LargeRecord(const std::string& agent = "agent-large",
                                                const std::string& skill = "skill-large") {
  kademlia::store::SkillRecord r = SampleRecord(agent, skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = "Large";
  for (int i = 0; i < 1024; ++i) r.descriptor->description += "\xE6\xBC\xA2";  // 漢
  r.descriptor->examples_json = {R"({"name":"one","input":{"q":1},"description":"d"})"};
  return r;
}

inline kademlia::Identity Publisher(const std::string& name = "publisher") {
  return kademlia::Identity::FromSeed(kademlia::Key::Sha256("publisher-seed:" + name).bytes());
}

inline kademlia::store::SignedRecord Signed(const kademlia::store::SkillRecord& record,
                                            const kademlia::Identity& publisher) {
  return kademlia::store::SignRecord(record, publisher).value();
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_RECORDS_H_
