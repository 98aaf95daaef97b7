#include "discovery/schema/format_patterns.h"

#include <catch2/catch.hpp>
#include <regex>
#include <string>

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

bool Matches(std::string_view format, const std::string& text, Draft draft = Draft::kDraft7) {
  const auto pattern = FormatPattern(draft, format);
  REQUIRE(pattern);
  return std::regex_search(text, std::regex(std::string(*pattern), std::regex::ECMAScript));
}

TEST_CASE("uri matches absolute URIs and refuses references, spaces and bad escapes", "[unit]") {
  // The JSON-Schema-Test-Suite's draft7 optional/format/uri.json cases.
  for (const char* valid :
       {"http://foo.bar/?baz=qux#quux", "http://foo.com/blah_(wikipedia)_blah#cite-1",
        "http://foo.bar/?q=Test%20URL-encoded%20stuff", "http://xn--nw2a.xn--j6w193g/",
        "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", "http://223.255.255.254",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt", "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com", "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2"}) {
    INFO(valid);
    CHECK(Matches("uri", valid));
    CHECK(Matches("uri", valid, Draft::kDraft4));
  }
  for (const char* invalid : {"//foo.bar/?baz=qux#quux", "/abc", "\\\\WINDOWS\\fileshare", "abc",
                              "http:// shouldfail.com", ":// should fail", "http://a/%zz",
                              "http://a/#b#c", "https://ex\xc3\xa9.com/", "1http://a", ""}) {
    INFO(invalid);
    CHECK_FALSE(Matches("uri", invalid));
  }
}

TEST_CASE("uri-template matches RFC 6570 templates and refuses unclosed expressions", "[unit]") {
  for (const char* valid :
       {"http://example.com/dictionary/{term:1}/{term}", "http://example.com/dictionary",
        "dictionary/{term:1}/{term}", "https://{tenant}.example.com/mcp{?q,lang}",
        "{+path}/here{#frag}", "/map{?x,y}{&list*}", "{var.name}", "%20{a%41b}", ""}) {
    INFO(valid);
    CHECK(Matches("uri-template", valid));
  }
  for (const char* invalid :
       {"http://example.com/dictionary/{term:1}/{term", "http://a/{}", "{a b}", "{a:0}",
        "{a:10000}", "has space", "{a..b}", "x}", "{a.}", "quote\"d", "%zz"}) {
    INFO(invalid);
    CHECK_FALSE(Matches("uri-template", invalid));
  }
}

TEST_CASE("only uri and, from draft-07, uri-template are checked as patterns", "[unit]") {
  CHECK(FormatPattern(Draft::kDraft7, "uri"));
  CHECK(FormatPattern(Draft::kDraft4, "uri"));
  CHECK(FormatPattern(Draft::kDraft7, "uri-template"));
  CHECK_FALSE(FormatPattern(Draft::kDraft4, "uri-template"));
  for (const char* other : {"date-time", "email", "uri-reference", "hostname", "URI"}) {
    CHECK_FALSE(FormatPattern(Draft::kDraft7, other));
  }
}

TEST_CASE("a 1,024-character URI and template are matched without exhausting the stack", "[unit]") {
  // kPatternSubjectLengthMax: the longest string Validate hands to std::regex.
  const std::string uri = "https://example.com/" + std::string(1024 - 20, 'a');
  REQUIRE(uri.size() == kPatternSubjectLengthMax);
  CHECK(Matches("uri", uri));
  std::string escaped = "https://example.com/";
  while (escaped.size() + 3 <= kPatternSubjectLengthMax) escaped += "%41";
  CHECK(Matches("uri", escaped));
  std::string expressions;
  while (expressions.size() + 4 <= kPatternSubjectLengthMax) expressions += "{ab}";
  CHECK(Matches("uri-template", expressions));
}

TEST_CASE("the rewrite replaces format in every subschema and leaves data alone", "[unit]") {
  const json schema = json::parse(R"({
    "definitions": {"link": {"type": "string", "format": "uri"}},
    "properties": {
      "a": {"type": "string", "format": "uri-template", "pattern": "^h"},
      "b": {"type": "string", "format": "uri-template", "pattern": "^h",
            "allOf": [{"minLength": 1}]},
      "c": {"type": "array", "items": {"type": "string", "format": "uri"}},
      "d": {"anyOf": [{"not": {"type": "string", "format": "uri"}}]},
      "e": {"type": "string", "format": "date-time"},
      "f": {"const": {"type": "string", "format": "uri"},
            "enum": [{"format": "uri"}], "default": {"format": "uri"}},
      "format": {"type": "string"}}})");
  const std::string uri(*FormatPattern(Draft::kDraft7, "uri"));
  const std::string uri_template(*FormatPattern(Draft::kDraft7, "uri-template"));
  const json out = WithFormatPatterns(schema, Draft::kDraft7);
  CHECK(out["definitions"]["link"] == json{{"type", "string"}, {"pattern", uri}});
  CHECK(out["properties"]["a"] ==
        json{{"type", "string"}, {"pattern", "^h"}, {"allOf", {{{"pattern", uri_template}}}}});
  CHECK(out["properties"]["b"]["allOf"] ==
        json::array({{{"minLength", 1}}, {{"pattern", uri_template}}}));
  CHECK_FALSE(out["properties"]["b"].contains("format"));
  CHECK(out["properties"]["c"]["items"] == json{{"type", "string"}, {"pattern", uri}});
  CHECK(out["properties"]["d"]["anyOf"][0]["not"] == json{{"type", "string"}, {"pattern", uri}});
  CHECK(out["properties"]["e"] == schema["properties"]["e"]);  // valijson checks date-time
  CHECK(out["properties"]["f"] == schema["properties"]["f"]);  // values, not schemas
  CHECK(out["properties"]["format"] == schema["properties"]["format"]);
  // Draft 4 has no uri-template: left for the keyword policy to refuse.
  CHECK(WithFormatPatterns(schema, Draft::kDraft4)["properties"]["a"] == schema["properties"]["a"]);
}

}  // namespace
}  // namespace skillnode::discovery::schema
