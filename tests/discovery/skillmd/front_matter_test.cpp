// SKILL.md front matter: what is accepted, and every refusal with its line and reason.
#include "discovery/skillmd/front_matter.h"

#include <catch2/catch.hpp>
#include <string>

#include "kademlia/store/record/skill_record.h"
#include "support/utf8_text.h"

namespace skillnode::discovery::skillmd {
namespace {

using testing::Characters;

FolderError Refusal(const std::string& text) {
  auto parsed = ParseFrontMatter(text);
  REQUIRE_FALSE(parsed);
  return parsed.error();
}

TEST_CASE("Front matter with a name and a description is read", "[unit]") {
  auto parsed = ParseFrontMatter("---\nname: pdf-tools\ndescription: Reads PDFs.\n---\n# Body\n");
  REQUIRE(parsed);
  CHECK(parsed->name == "pdf-tools");
  CHECK(parsed->description == "Reads PDFs.");
}

TEST_CASE("CRLF line endings, a BOM and non-ASCII text are accepted", "[unit]") {
  auto crlf = ParseFrontMatter("---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n");
  REQUIRE(crlf);
  CHECK(crlf->description == "b");
  auto bom = ParseFrontMatter("\xEF\xBB\xBF---\nname: a\ndescription: 中文 🌏\n---\n");
  REQUIRE(bom);
  CHECK(bom->description == "中文 🌏");
}

TEST_CASE("Folded and literal descriptions keep YAML's meaning", "[unit]") {
  auto folded = ParseFrontMatter("---\nname: a\ndescription: >\n  one\n  two\n---\n");
  REQUIRE(folded);
  CHECK(folded->description == "one two\n");
  auto literal = ParseFrontMatter("---\nname: a\ndescription: |\n  one\n  two\n---\n");
  REQUIRE(literal);
  CHECK(literal->description == "one\ntwo\n");
}

TEST_CASE("Optional keys of the Agent Skills format and unknown keys are allowed", "[unit]") {
  CHECK(
      ParseFrontMatter("---\nname: a\ndescription: b\nlicense: MIT\nallowed-tools: Read\n"
                       "metadata:\n  k: v\nextra: [1, 2]\n---\n"));
}

TEST_CASE("A file without front matter is refused on line 1", "[unit]") {
  const FolderError e = Refusal("# Just markdown\n");
  CHECK(e.line == 1);
  CHECK(e.Message() ==
        "SKILL.md line 1: must begin with a YAML front matter block: a first line '---'");
  CHECK(Refusal("").line == 1);
}

TEST_CASE("An unclosed front matter block is refused", "[unit]") {
  const FolderError e = Refusal("---\nname: a\ndescription: b\n# no closing line\n");
  CHECK(e.line == 1);
  CHECK(e.reason.find("not closed") != std::string::npos);
}

TEST_CASE("A front matter block past the size limit is refused before YAML reads it", "[unit]") {
  std::string text = "---\nname: a\ndescription: b\n";
  while (text.size() <= kFrontMatterBytesMax) text += "# padding padding padding\n";
  text += "---\n";
  CHECK(Refusal(text).reason.find(std::to_string(kFrontMatterBytesMax)) != std::string::npos);
}

TEST_CASE("Malformed YAML is refused with the file's line", "[unit]") {
  const FolderError e = Refusal("---\nname: a\ndescription: [unclosed\nlicense: x\n---\n");
  CHECK(e.line >= 3);
  CHECK(e.reason.find("not valid YAML") != std::string::npos);
  const FolderError dup = Refusal("---\nname: a\ndescription: b\nname: c\n---\n");
  CHECK(dup.line == 4);
  CHECK(dup.reason.find("duplicate key 'name'") != std::string::npos);
}

TEST_CASE("A missing or empty description is refused naming its line", "[unit]") {
  const FolderError empty = Refusal("---\nname: a\ndescription: \"\"\n---\n");
  CHECK(empty.line == 3);
  CHECK(empty.field == "description");
  CHECK(empty.Message().starts_with("SKILL.md line 3: description: must be a non-empty string"));
  const FolderError list = Refusal("---\nname: a\ndescription:\n  - x\n---\n");
  CHECK(list.field == "description");
  CHECK(list.line == 4);
  const FolderError missing = Refusal("---\nname: a\n---\n");
  CHECK(missing.Message() == "SKILL.md line 1: description: is required");
}

TEST_CASE("Names outside the Agent Skills format are refused", "[unit]") {
  for (const char* name :
       {"Upper", "has space", "-lead", "trail-", "dou--ble", "under_score", "\"\""}) {
    const FolderError e = Refusal(std::string("---\nname: ") + name + "\ndescription: b\n---\n");
    CHECK(e.field == "name");
    CHECK(e.line == 2);
  }
  CHECK(
      Refusal("---\nname: " + std::string(kSkillNameLengthMax + 1, 'a') + "\ndescription: b\n---\n")
          .field == "name");
  CHECK(ParseFrontMatter("---\nname: " + std::string(kSkillNameLengthMax, 'a') +
                         "\ndescription: b\n---\n"));
  CHECK(Refusal("---\ndescription: b\n---\n").Message() == "SKILL.md line 1: name: is required");
}

TEST_CASE("A description of 1,024 characters in any script is read whole, and 1,025 refused",
          "[unit]") {
  for (size_t bytes : {size_t{3}, size_t{4}}) {
    const std::string description = Characters(kDescriptionCharactersMax, bytes);
    auto read = ParseFrontMatter("---\nname: a\ndescription: " + description + "\n---\n");
    REQUIRE(read);
    CHECK(read->description == description);
  }
  const std::string ascii(kDescriptionCharactersMax, 'x');
  CHECK(ParseFrontMatter("---\nname: a\ndescription: " + ascii + "\n---\n"));
  const FolderError e = Refusal("---\nname: a\ndescription: " + Characters(1025, 3) + "\n---\n");
  CHECK(e.line == 3);
  CHECK(e.field == "description");
  CHECK(e.reason == "is 1025 characters, more than 1024 (the Agent Skills format's limit)");
}

TEST_CASE("A blank description is refused as the reference validator refuses it", "[unit]") {
  const FolderError e = Refusal("---\nname: a\ndescription: \"   \"\n---\n");
  CHECK(e.field == "description");
  CHECK(e.reason.starts_with("must be a non-empty string"));
}

TEST_CASE("A compatibility of 1 to 500 characters is read and others are refused", "[unit]") {
  CHECK(ParseFrontMatter("---\nname: a\ndescription: b\ncompatibility: " + Characters(500, 3) +
                         "\n---\n"));
  CHECK(Refusal("---\nname: a\ndescription: b\ncompatibility: " + Characters(501, 3) + "\n---\n")
            .reason == "is 501 characters, outside 1..500");
  CHECK(Refusal("---\nname: a\ndescription: b\ncompatibility: \"\"\n---\n").field ==
        "compatibility");
}

TEST_CASE("metadata maps keys to text and allowed-tools is text or a list of text", "[unit]") {
  // Scalars of any YAML type are text, as the reference parser reads them; no value is "".
  CHECK(ParseFrontMatter(
      "---\nname: a\ndescription: b\nmetadata:\n  version: 1.0\n  author: x\n  empty:\n"
      "allowed-tools:\n  - Bash(git:*)\n  - Read\n---\n"));
  const FolderError nested =
      Refusal("---\nname: a\ndescription: b\nmetadata:\n  k:\n    - 1\n---\n");
  CHECK(nested.field == "metadata.k");
  CHECK(nested.reason.starts_with("must be text"));
  const FolderError tool =
      Refusal("---\nname: a\ndescription: b\nallowed-tools: [Read, {a: b}]\n---\n");
  CHECK(tool.field == "allowed-tools[1]");
}

TEST_CASE("A SKILL.md with every field of the Agent Skills specification is read", "[unit]") {
  auto read = ParseFrontMatter(
      "---\nname: dht-debugging\ndescription: Diagnose Kademlia routing-table and lookup "
      "problems in skillnode. Use when peers are unreachable or lookups time out.\n"
      "license: Apache-2.0\ncompatibility: Requires a running skillnode >= 0.4 and network "
      "access\nmetadata:\n  author: skillnode\n  version: \"0.1\"\n"
      "allowed-tools: Bash(skillnode:*) Read\n---\n# DHT debugging\n");
  REQUIRE(read);
  CHECK(read->name == "dht-debugging");
  CHECK(read->description.starts_with("Diagnose Kademlia"));
}

TEST_CASE("Optional keys of the wrong type are refused", "[unit]") {
  CHECK(Refusal("---\nname: a\ndescription: b\nmetadata: text\n---\n").field == "metadata");
  CHECK(Refusal("---\nname: a\ndescription: b\nlicense: [a]\n---\n").field == "license");
  CHECK(Refusal("---\nname: a\ndescription: b\nallowed-tools: {a: b}\n---\n").field ==
        "allowed-tools");
}

TEST_CASE("Front matter that is not a map is refused", "[unit]") {
  CHECK(Refusal("---\n- a\n- b\n---\n").reason.find("must be a map") != std::string::npos);
  CHECK(Refusal("---\n---\n").Message() == "SKILL.md line 1: name: is required");
}

TEST_CASE("Bytes that are not UTF-8 are refused with their line", "[unit]") {
  CHECK(FirstNonUtf8Line("ok\nok\n") == 0);
  CHECK(FirstNonUtf8Line("ok\n\xff\n") == 2);
  CHECK(FirstNonUtf8Line("\xC0\xAF") == 1);            // overlong '/'
  CHECK(FirstNonUtf8Line("a\n\nb\xED\xA0\x80") == 3);  // a surrogate
  CHECK(FirstNonUtf8Line("\xF4\x90\x80\x80") == 1);    // past U+10FFFF
  CHECK(FirstNonUtf8Line("\xE4\xB8") == 1);            // truncated
  const FolderError e = Refusal("---\nname: a\ndescription: b\n---\nbody \xfe\n");
  CHECK(e.line == 5);
  CHECK(e.reason == "is not UTF-8 text");
}

}  // namespace
}  // namespace skillnode::discovery::skillmd
