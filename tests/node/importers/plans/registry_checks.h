// RequireRegistrable: what the registry checks of a planned skill, written independently of the
// planners' own CheckRegistrable, for the planner tests: kademlia::store::ValidateRecord on the
// fields as Registry::Register completes them (TTL, health), the semantic version and the
// descriptor's JSON Schema that POST /api/skills asks for, and the digests of the bytes.
#ifndef SKILLNODE_TESTS_NODE_IMPORTERS_PLANS_REGISTRY_CHECKS_H_
#define SKILLNODE_TESTS_NODE_IMPORTERS_PLANS_REGISTRY_CHECKS_H_

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "discovery/schema/descriptor_schema.h"
#include "discovery/semver.h"
#include "discovery/skillmd/skill_folder.h"
#include "kademlia/store/record/skill_record.h"
#include "node/importers/plans/planned_skill.h"

namespace skillnode::node::importers::plans::testing {

inline void RequireRegistrable(const PlannedSkill& plan) {
  INFO("plan " << plan.entry);
  kademlia::store::SkillRecord record = plan.fields;
  record.ttl_seconds = 3600;  // RegistryConfig's default
  const auto valid = kademlia::store::ValidateRecord(record);
  INFO((valid ? std::string("valid") : valid.error().message));
  REQUIRE(valid);
  REQUIRE(discovery::SemVer::Parse(record.version));
  REQUIRE(record.origin.has_value());
  REQUIRE(record.descriptor.has_value());
  const auto& d = *record.descriptor;
  nlohmann::json descriptor = {{"name", d.name}, {"description", d.description}};
  if (!d.tags.empty()) descriptor["tags"] = d.tags;
  if (!d.examples.empty()) descriptor["examples"] = d.examples;
  for (const auto& violation : discovery::schema::ValidateDescriptor(descriptor)) {
    FAIL_CHECK("descriptor" << violation.pointer << ": " << violation.reason);
  }
  // Every digest names the bytes kept with it, and the origin's document is among them.
  bool origin_kept = false;
  for (const auto& [digest, bytes] : plan.bytes) {
    REQUIRE(bytes != nullptr);
    CHECK(discovery::skillmd::Sha256Of(*bytes) == digest);
    origin_kept = origin_kept || digest == record.origin->document_sha256;
  }
  CHECK(origin_kept);
}

}  // namespace skillnode::node::importers::plans::testing

#endif  // SKILLNODE_TESTS_NODE_IMPORTERS_PLANS_REGISTRY_CHECKS_H_
