// Gathering a format's records (node/formats/format_records.h): the merge of this node's
// registrations with the DHT's answer, signatures a reader can check, private records only
// when asked, and a lone node's gather.
#include "node/formats/format_records.h"

#include <catch2/catch.hpp>

#include "tests/node/formats/formats_fixture.h"

namespace skillnode::node::formats {
namespace {

using kademlia::store::RecordFormat;
using kademlia::store::SignedRecordPtr;
using kademlia::store::SkillRecord;

SignedRecordPtr SignedBy(SkillRecord record, const std::string& publisher) {
  return std::make_shared<const kademlia::store::SignedRecord>(
      testing::Signed(record, testing::Publisher(publisher)));
}

TEST_CASE("the merge keeps the newest version per identity, this node's on a tie", "[unit]") {
  SkillRecord mine = McpServerRecord("a.org", "s");
  mine.publisher = testing::Publisher("me").public_key();
  mine.sequence = 5;
  SkillRecord stale = mine;
  stale.sequence = 4;
  SkillRecord other = McpServerRecord("b.org", "s");
  other.sequence = 7;
  SkillRecord other_newer = other;
  other_newer.sequence = 8;
  other_newer.version = "1.1.0";
  const std::vector<SignedRecordPtr> found = {SignedBy(stale, "me"), SignedBy(mine, "me"),
                                              SignedBy(other, "o"), SignedBy(other_newer, "o")};
  const auto merged =
      FormatRecords::Merge({ListedRecord{.record = mine, .source = RecordSource::kLocal}}, found,
                           RecordFormat::kMcpServer, false);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].record.agent_id == "a.org");
  CHECK(merged[0].source == RecordSource::kLocal);
  // The same version found in the DHT lends its signed form to this node's unsigned copy.
  REQUIRE(merged[0].signature.has_value());
  CHECK(merged[0].encoded == found[1]->encoded);
  CHECK(merged[1].record.version == "1.1.0");
  CHECK(merged[1].source == RecordSource::kDht);
  REQUIRE(merged[1].signature.has_value());
  CHECK(kademlia::VerifySignature(merged[1].record.publisher, merged[1].encoded,
                                  *merged[1].signature));
}

TEST_CASE("the merge drops live records of another format and private ones, keeps tombstones",
          "[unit]") {
  SkillRecord skill = AgentSkillRecord("a.org", "md");
  SkillRecord secret = McpServerRecord("a.org", "secret");
  secret.descriptor->access = "private";
  SkillRecord gone = AgentSkillRecord("a.org", "gone");
  gone.tombstone = true;
  gone.reason = kademlia::store::UnregisterReason::kShutdown;
  gone.descriptor.reset();
  const std::vector<SignedRecordPtr> found = {SignedBy(skill, "o"), SignedBy(secret, "o"),
                                              SignedBy(gone, "o")};
  const auto mcp = FormatRecords::Merge({}, found, RecordFormat::kMcpServer, false);
  REQUIRE(mcp.size() == 1);
  CHECK(mcp[0].record.tombstone);
  CHECK(FormatRecords::Merge({}, found, RecordFormat::kMcpServer, true).size() == 2);
  CHECK(FormatRecords::Merge({}, found, RecordFormat::kAgentSkill, false).size() == 2);
}

TEST_CASE("this node's public registrations are listed signed, private ones only when asked",
          "[unit]") {
  FormatsFixture f;
  f.Register(McpServerRecord("a.org", "open"));
  SkillRecord secret = McpServerRecord("a.org", "closed");
  secret.descriptor->access = "private";
  f.Register(secret);
  f.Register(AgentSkillRecord("a.org", "md"));
  auto own = f.records.Own(RecordFormat::kMcpServer, false);
  REQUIRE(own.size() == 1);
  CHECK(own[0].record.skill_id == "open");
  CHECK(own[0].source == RecordSource::kLocal);
  CHECK_FALSE(own[0].signature.has_value());
  f.records.SignUnsigned(own);
  REQUIRE(own[0].signature.has_value());
  CHECK(kademlia::VerifySignature(f.dht.node.identity().public_key(), own[0].encoded,
                                  *own[0].signature));
  auto with_private = f.records.Own(RecordFormat::kMcpServer, true);
  REQUIRE(with_private.size() == 2);
  CHECK(with_private[0].record.skill_id == "closed");
  f.records.SignUnsigned(with_private);
  CHECK_FALSE(with_private[0].signature.has_value());
  CHECK(with_private[1].signature.has_value());

  std::optional<Gathered> gathered;
  f.records.Gather(f.dht.now, RecordFormat::kAgentSkill, false,
                   [&gathered](Gathered g) { gathered = std::move(g); });
  REQUIRE(gathered.has_value());
  CHECK(gathered->outcome == Gathered::Outcome::kComplete);
  REQUIRE(gathered->records.size() == 1);
  CHECK(gathered->records[0].record.skill_id == "md");
  CHECK(gathered->records[0].source == RecordSource::kLocal);
  CHECK(gathered->records[0].signature.has_value());
}

TEST_CASE("without a DHT a gather lists this node's registrations only", "[unit]") {
  FormatsFixture f;
  f.Register(McpServerRecord("a.org", "open"));
  const FormatRecords local(nullptr, f.registry, f.dht.node.identity());
  std::optional<Gathered> gathered;
  local.Gather(f.dht.now, RecordFormat::kMcpServer, false,
               [&gathered](Gathered g) { gathered = std::move(g); });
  REQUIRE(gathered.has_value());
  CHECK(gathered->outcome == Gathered::Outcome::kLocalOnly);
  CHECK(gathered->records.size() == 1);
}

}  // namespace
}  // namespace skillnode::node::formats
