// The watch stream's readers (node/skill_watch.h): which one key a request watches, which
// skills are under it, and the event a DHT change or a private registration's change becomes.
#include "node/skill_watch.h"

#include <catch2/catch.hpp>
#include <string>

#include "route_requests.h"
#include "support/records.h"

namespace skillnode::node {
namespace {

using discovery::RegistryEvent;
using kademlia::store::ListenEvent;
using kademlia::store::UnregisterReason;
using nlohmann::json;
using testing::WithQuery;

kademlia::store::SkillRecord Private() {
  kademlia::store::SkillRecord record = testing::SampleRecord();
  kademlia::store::SkillDescriptor descriptor;
  descriptor.access = "private";
  record.descriptor = descriptor;
  return record;
}

ListenEvent Listened(ListenEvent::Kind kind, const kademlia::store::SkillRecord& record,
                     UnregisterReason reason = UnregisterReason::kNone) {
  ListenEvent event;
  event.kind = kind;
  event.record.record = record;
  event.reason = reason;
  return event;
}

RegistryEvent Changed(RegistryEvent::Kind kind, const kademlia::store::SkillRecord& record,
                      bool was_private = false) {
  return RegistryEvent{kind, record, was_private};
}

TEST_CASE("a watch names one scene, capability or skill, and its DHT key", "[unit]") {
  auto scene = WatchTargetFromParams(WithQuery("scene=auth"));
  REQUIRE(scene);
  CHECK(scene->kind == WatchKind::kScene);
  CHECK(scene->value == "auth");
  CHECK(scene->Key() == kademlia::store::SceneKey("auth"));
  auto capability = WatchTargetFromParams(WithQuery("capability=user%20auth"));
  REQUIRE(capability);
  CHECK(capability->kind == WatchKind::kCapability);
  CHECK(capability->value == "user auth");
  CHECK(capability->Key() == kademlia::store::CapabilityKey("user auth"));
  auto skill = WatchTargetFromParams(WithQuery("skill=s1"));
  REQUIRE(skill);
  CHECK(skill->kind == WatchKind::kSkill);
  CHECK(skill->Key() == kademlia::store::SkillKey("s1"));
  CHECK(WatchKindName(WatchKind::kCapability) == "capability");
}

TEST_CASE("a watch with no parameter, two of them or an empty one is refused", "[unit]") {
  const std::string exactly_one =
      "give exactly one of the query parameters scene, capability, skill";
  for (const char* query : {"", "scene=a&skill=b", "other=x"}) {
    INFO(query);
    auto refused = WatchTargetFromParams(WithQuery(query));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().field == "scene");
    CHECK(refused.error().message == exactly_one);
  }
  // An empty value is named at once, before the count.
  auto empty = WatchTargetFromParams(WithQuery("scene=a&capability="));
  REQUIRE_FALSE(empty);
  CHECK(empty.error().field == "capability");
  CHECK(empty.error().message == "capability: is empty");
}

TEST_CASE("a record is under a watched scene or capability it has, or its own skill id", "[unit]") {
  const kademlia::store::SkillRecord record = testing::SampleRecord();
  CHECK(WatchTarget{WatchKind::kScene, "auth"}.Covers(record));
  CHECK_FALSE(WatchTarget{WatchKind::kScene, "org-data-read"}.Covers(record));
  CHECK(WatchTarget{WatchKind::kCapability, "user-auth"}.Covers(record));
  CHECK_FALSE(WatchTarget{WatchKind::kCapability, "auth"}.Covers(record));
  CHECK(WatchTarget{WatchKind::kSkill, "skill-org-feishu"}.Covers(record));
  CHECK_FALSE(WatchTarget{WatchKind::kSkill, "agent-001"}.Covers(record));
}

TEST_CASE("a DHT change becomes added, changed or removed with the skill from the DHT", "[unit]") {
  const kademlia::store::SkillRecord record = testing::SampleRecord();
  auto added = DhtWatchEvent(Listened(ListenEvent::Kind::kAdded, record), false);
  REQUIRE(added);
  CHECK(added->name == "added");
  CHECK(added->skill == discovery::SkillJson(record, discovery::Source::kDht));
  auto changed = DhtWatchEvent(Listened(ListenEvent::Kind::kChanged, record), false);
  REQUIRE(changed);
  CHECK(changed->name == "changed");
  CHECK_FALSE(changed->skill.contains("reason"));
  auto unpublished = DhtWatchEvent(
      Listened(ListenEvent::Kind::kRemoved, record, UnregisterReason::kUpgrade), false);
  REQUIRE(unpublished);
  CHECK(unpublished->name == "removed");
  CHECK(unpublished->skill["reason"] == "UPGRADE");
  auto expired = DhtWatchEvent(Listened(ListenEvent::Kind::kRemoved, record), false);
  REQUIRE(expired);
  CHECK(expired->skill["reason"] == "EXPIRED");
}

TEST_CASE("a private skill from the DHT is shown only on a stream with a valid token", "[unit]") {
  const ListenEvent event = Listened(ListenEvent::Kind::kAdded, Private());
  CHECK_FALSE(DhtWatchEvent(event, false));
  auto shown = DhtWatchEvent(event, true);
  REQUIRE(shown);
  CHECK(shown->name == "added");
}

TEST_CASE("a private registration's change becomes the event authenticated streams see", "[unit]") {
  using Kind = RegistryEvent::Kind;
  kademlia::store::SkillRecord record = Private();
  auto registered = PrivateWatchEvent(Changed(Kind::kRegistered, record));
  REQUIRE(registered);
  CHECK(registered->name == "added");
  CHECK(registered->skill == discovery::SkillJson(record, discovery::Source::kLocal));
  // An update that makes a public skill private adds it; one of a private skill changes it.
  CHECK(PrivateWatchEvent(Changed(Kind::kUpdated, record, false))->name == "added");
  CHECK(PrivateWatchEvent(Changed(Kind::kUpdated, record, true))->name == "changed");
  CHECK(PrivateWatchEvent(Changed(Kind::kStatusChanged, record, true))->name == "changed");

  record.tombstone = true;
  record.reason = UnregisterReason::kMaintenance;
  auto unregistered = PrivateWatchEvent(Changed(Kind::kUnregistered, record, true));
  REQUIRE(unregistered);
  CHECK(unregistered->name == "removed");
  CHECK(unregistered->skill["reason"] == "MAINTENANCE");
  auto expired = PrivateWatchEvent(Changed(Kind::kExpired, record, true));
  REQUIRE(expired);
  CHECK(expired->name == "removed");
  CHECK(expired->skill["reason"] == "EXPIRED");
}

TEST_CASE("a public registration's change reaches watch streams only through the DHT", "[unit]") {
  CHECK_FALSE(
      PrivateWatchEvent(Changed(RegistryEvent::Kind::kRegistered, testing::SampleRecord())));
  // A skill made public by an update is no longer the registry's to show.
  CHECK_FALSE(PrivateWatchEvent(
      Changed(RegistryEvent::Kind::kUpdated, testing::SampleRecord(), /*was_private=*/true)));
}

}  // namespace
}  // namespace skillnode::node
