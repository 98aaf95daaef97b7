// The free text of a word search (`q`, issue 47; docs/search.md "Word search") as every
// surface takes it: GET /api/skills, POST /api/skills/search, the capability endpoint and MCP
// list_skills. One set of limits and one check, so that the routes and the tools refuse the
// same texts for the same reasons. Pure; no I/O.
#ifndef SKILLNODE_NODE_API_QUERY_TEXT_H_
#define SKILLNODE_NODE_API_QUERY_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

namespace skillnode::node::api {

// Longest `q` accepted, in bytes: a search box's sentence with room to spare; a skill name is
// at most 64 characters.
constexpr size_t kQueryTextBytesMax = 256;
// Most words in one `q`: each word is looked up in the keyword index, so a query costs at most
// this many index reads (and all words must match, so more only narrows).
constexpr size_t kQueryWordsMax = 16;

// The words of `text`: its runs of characters other than white space (space, tab, CR, LF).
std::vector<std::string> QueryWords(std::string_view text);

// `text` checked as a `q`: the text to search (empty when it is only white space: no filter),
// else the reason it is refused (to follow the field's name): longer than kQueryTextBytesMax,
// not UTF-8, or more than kQueryWordsMax words.
[[nodiscard]] tl::expected<std::string, std::string> CheckQueryText(std::string_view text);

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_QUERY_TEXT_H_
