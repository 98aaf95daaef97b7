#include "node/api/query_text.h"

#include "node/utf8_text.h"

namespace skillnode::node::api {
namespace {

constexpr std::string_view kSpaces = " \t\r\n";

}  // namespace

std::vector<std::string> QueryWords(std::string_view text) {
  std::vector<std::string> words;
  size_t start = text.find_first_not_of(kSpaces);
  while (start != std::string_view::npos) {
    const size_t end = text.find_first_of(kSpaces, start);
    words.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = text.find_first_not_of(kSpaces, end);
  }
  return words;
}

tl::expected<std::string, std::string> CheckQueryText(std::string_view text) {
  if (text.size() > kQueryTextBytesMax) {
    return tl::unexpected("must be at most " + std::to_string(kQueryTextBytesMax) +
                          " bytes (it has " + std::to_string(text.size()) + ")");
  }
  if (!IsUtf8(text)) return tl::unexpected(std::string("must be UTF-8 text"));
  const size_t words = QueryWords(text).size();
  if (words > kQueryWordsMax) {
    return tl::unexpected("must have at most " + std::to_string(kQueryWordsMax) +
                          " words (it has " + std::to_string(words) + ")");
  }
  if (words == 0) return std::string();
  return std::string(text);
}

}  // namespace skillnode::node::api
