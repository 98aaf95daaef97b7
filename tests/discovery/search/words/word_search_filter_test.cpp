// WordSearch's filtered further read (docs/protocol.md "Filtered reads") over fake sources: the
// rarest term is read again filtered by the other words read under one spelling, reaches the
// records holding them all past its heaviest pointers, and keeps what its probe found.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "discovery/search/words/word_search_world.h"
#include "kademlia/store/record/term_profile.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;
using testing::Ids;
using testing::Skill;
using testing::Strings;
using World = testing::WordSearchWorld;

// Six documents' tools that weigh "feishu" most and six agendas that weigh "calendar" most.
void PublishDocsAndAgendas(World& world) {
  for (int i = 0; i < 6; ++i) {
    const std::string n = std::to_string(i);
    world.Publish(Skill("docs-" + n, "Feishu Docs " + n, "Feishu documents, Feishu sheets."));
    world.Publish(Skill("agenda-" + n, "Calendar Agenda " + n, "Calendar days, calendar weeks."));
  }
}

TEST_CASE(
    "the rarest term's further read is filtered by the other words, and so reaches records "
    "holding them all past its heaviest pointers",
    "[unit]") {
  World world;
  world.config.probe_pointers = 2;
  world.config.term_pointers_read_max = 4;
  // Two calendars hold "feishu" lightly: neither word's heaviest pointers name them.
  PublishDocsAndAgendas(world);
  world.Publish(Skill("feishu-cal-1", "Feishu Calendar One", "Books meetings and rooms."));
  world.Publish(Skill("feishu-cal-2", "Feishu Calendar Two", "Books meetings and rooms."));
  world.terms.SetCount("calendar", 5000);
  world.terms.SetCount("feishu", 40);

  const WordAnswer answer = world.Search("feishu calendar");
  REQUIRE(world.terms.calls.size() == 3);
  CHECK(world.terms.calls[0].with_terms.empty());  // the probes are not filtered
  CHECK(world.terms.calls[1].with_terms.empty());
  CHECK(world.terms.calls[2].term == "feishu");
  CHECK(world.terms.calls[2].with_terms ==
        std::vector<uint16_t>{kademlia::store::TermProfile::HashOf("calendar")});
  CHECK(Ids(answer) == Strings{"feishu-cal-1", "feishu-cal-2"});

  // Unfiltered (a reader of an earlier version), the same 4 pointers are feishu's heaviest:
  // documents only, and neither calendar is found.
  world.config.filtered_reads = false;
  world.terms.calls.clear();
  CHECK(Ids(world.Search("feishu calendar")).empty());
  REQUIRE(world.terms.calls.size() == 3);
  CHECK(world.terms.calls[2].with_terms.empty());
}

TEST_CASE(
    "a skill whose pointers carry no profile, met in the rarest term's probe, is kept past the "
    "filtered read and found from its text",
    "[unit]") {
  World world;
  world.config.probe_pointers = 2;
  world.config.term_pointers_read_max = 4;
  PublishDocsAndAgendas(world);
  // A publisher of an earlier version: pointers without a profile, its feishu pointer the
  // heaviest of all (so in the probe), its calendar pointer too light to be read.
  const SkillRecord old = Skill("old-cal", "Feishu Calendar", "Books meetings.");
  world.records.Put(old);
  kademlia::store::TermPointer feishu = PointerOf(old, "feishu", 50.0);
  feishu.name = "Feishu Calendar";
  world.terms.Add(feishu);
  world.terms.Add(PointerOf(old, "calendar", 0.1));
  world.terms.SetCount("feishu", 40);
  world.terms.SetCount("calendar", 5000);
  const WordAnswer answer = world.Search("feishu calendar");
  REQUIRE(world.terms.calls.size() == 3);
  CHECK_FALSE(world.terms.calls[2].with_terms.empty());  // filtered: old-cal does not pass
  CHECK(Ids(answer) == Strings{"old-cal"});
}

TEST_CASE("a term read under several spellings does not filter the rarest term's read", "[unit]") {
  World world;
  world.config.probe_pointers = 2;
  world.config.term_pointers_read_max = 4;
  for (int i = 0; i < 6; ++i) {
    world.Publish(Skill("docs-" + std::to_string(i), "Feishu Docs " + std::to_string(i)));
  }
  world.Publish(Skill("cal", "Feishu Calendar"));
  world.terms.SetCount("feishu", 40);
  world.terms.SetCount("calendar", 5000);  // common: feishu is the rarest term
  // "calendr" is not indexed: it is read again as its correction "calendar", an alternative,
  // and a record holding either spelling matches; a filter of one hash cannot say that.
  world.vocabulary.NoteRecord(Skill("cal", "Feishu Calendar"));
  (void)world.Search("feishu calendr");
  bool further = false;
  for (const auto& call : world.terms.calls) {
    if (call.term == "feishu" && call.wanted == 4) {
      further = true;
      CHECK(call.with_terms.empty());
    }
  }
  CHECK(further);
}

}  // namespace
}  // namespace skillnode::discovery::search
