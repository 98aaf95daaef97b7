// list_skills' arguments and description (node/mcp/tool_definitions.h): its query is the
// word search's free text `q`, refused by the same limits as the search routes' `q`.
#include "node/mcp/tool_definitions.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node::mcp {
namespace {

using nlohmann::json;

TEST_CASE("list_skills' query is the word search's q, held to the same limits", "[unit]") {
  auto args = ParseListArgs({{"query", "summarising pdfs"}, {"scene", "office"}});
  REQUIRE(args);
  CHECK(args->text == "summarising pdfs");
  CHECK(args->scene == "office");
  CHECK(ParseListArgs({{"query", " \t "}})->text.empty());  // white space alone: no query
  CHECK(ParseListArgs(json::object())->text.empty());
  std::string words;
  for (size_t i = 0; i < kQueryWordsMax; ++i) words += "w ";
  CHECK(ParseListArgs({{"query", words}}));
  const auto many = ParseListArgs({{"query", words + "one-more"}});
  REQUIRE_FALSE(many);
  CHECK(many.error() == "arguments.query: must have at most 16 words (it has 17)");
  const auto not_utf8 = ParseListArgs({{"query", "pdf \xC0\xAF"}});
  REQUIRE_FALSE(not_utf8);
  CHECK(not_utf8.error() == "arguments.query: must be UTF-8 text");
  CHECK(ParseListArgs({{"query", 7}}).error() == "arguments.query: must be a string");
  CHECK(ParseListArgs({{"keywords", "pdf"}}).error().starts_with("arguments.keywords: not an"));
}

TEST_CASE("list_skills describes its query as a ranked word search over the network", "[unit]") {
  const json tools = ToolDefinitions();
  const json& list = tools.at(0);
  REQUIRE(list.at("name") == "list_skills");
  const std::string query = list.at("inputSchema").at("properties").at("query").at("description");
  for (const char* word :
       {"name", "description", "capabilities", "tags", "scenes", "network", "best matches first"}) {
    INFO(word);
    CHECK(query.find(word) != std::string::npos);
  }
  CHECK(list.at("inputSchema").at("properties").at("query").at("maxLength") == kToolTextMax);
}

}  // namespace
}  // namespace skillnode::node::mcp
