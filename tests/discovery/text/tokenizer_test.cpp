// Tokenizer: English, case, accents, ß, CJK bigrams, emoji, mixed scripts, digits, invalid
// UTF-8 and the bounds.
#include "discovery/text/tokenizer.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::discovery::text {
namespace {

std::vector<std::string> Texts(std::string_view text) {
  std::vector<std::string> texts;
  for (const Term& term : Tokenizer().Tokenize(text)) texts.push_back(term.text);
  return texts;
}

std::vector<TermKind> Kinds(std::string_view text) {
  std::vector<TermKind> kinds;
  for (const Term& term : Tokenizer().Tokenize(text)) kinds.push_back(term.kind);
  return kinds;
}

using Strings = std::vector<std::string>;

TEST_CASE("the tokenizer splits English at spaces and punctuation", "[unit]") {
  CHECK(Texts("Summarise a PDF, then translate it.") ==
        Strings{"summarise", "a", "pdf", "then", "translate", "it"});
  CHECK(Texts("  \t\n") == Strings{});
  CHECK(Texts("") == Strings{});
}

TEST_CASE("the tokenizer splits at dashes and slashes, by Unicode category", "[unit]") {
  CHECK(Texts("feishu-calendar") == Strings{"feishu", "calendar"});
  CHECK(Texts("PDF/A") == Strings{"pdf", "a"});
  CHECK(Texts("e-mail") == Strings{"e", "mail"});
  CHECK(Texts("snake_case") == Strings{"snake", "case"});
  CHECK(Texts("pdf.summarize") == Strings{"pdf", "summarize"});
  CHECK(Texts("don't") == Strings{"don", "t"});
}

TEST_CASE("the tokenizer folds case, full-width forms and ligatures", "[unit]") {
  CHECK(Texts("GitHub GITHUB github") == Strings{"github", "github", "github"});
  CHECK(Texts("Ｆｕｌｌ ｗｉｄｔｈ") == Strings{"full", "width"});
  CHECK(Texts("ﬁle") == Strings{"file"});  // the fi ligature, NFKC
}

TEST_CASE("the tokenizer keeps diacritics and composes them the same way", "[unit]") {
  CHECK(Texts("Café") == Strings{"café"});
  CHECK(Texts("cafe\xCC\x81") == Strings{"café"});  // e + COMBINING ACUTE ACCENT
  CHECK(Texts("CAFÉ") == Strings{"café"});
  CHECK(Texts("cafe") != Texts("café"));
  CHECK(Texts("Ελληνικά кириллица") == Strings{"ελληνικά", "кириллица"});
}

TEST_CASE("the tokenizer folds German ß and capital ẞ to ss", "[unit]") {
  CHECK(Texts("Straße") == Strings{"strasse"});
  CHECK(Texts("STRAẞE") == Strings{"strasse"});
  CHECK(Texts("STRASSE") == Strings{"strasse"});
}

TEST_CASE("the tokenizer splits Chinese, Japanese and Korean runs into bigrams", "[unit]") {
  CHECK(Texts("日本語") == Strings{"日本", "本語"});
  CHECK(Texts("翻译文本") == Strings{"翻译", "译文", "文本"});
  CHECK(Texts("カレンダー") == Strings{"カレ", "レン", "ンダ", "ダー"});
  CHECK(Texts("ひらがな") == Strings{"ひら", "らが", "がな"});
  CHECK(Texts("한국어 번역") == Strings{"한국", "국어", "번역"});
  CHECK(Kinds("日本語") == std::vector<TermKind>{TermKind::kCjk, TermKind::kCjk});
}

TEST_CASE("the tokenizer keeps a single CJK character alone as a unigram", "[unit]") {
  CHECK(Texts("译") == Strings{"译"});
  CHECK(Texts("猫、犬") == Strings{"猫", "犬"});  // the ideographic comma separates
}

TEST_CASE("the tokenizer normalises half-width katakana to full width", "[unit]") {
  CHECK(Texts("ｶﾚﾝﾀﾞｰ") == Texts("カレンダー"));
}

TEST_CASE("the tokenizer splits mixed scripts at the change of script", "[unit]") {
  CHECK(Texts("翻译 japanese text") == Strings{"翻译", "japanese", "text"});
  CHECK(Texts("翻译japanese") == Strings{"翻译", "japanese"});
  CHECK(Texts("PDF要約ツール") == Strings{"pdf", "要約", "約ツ", "ツー", "ール"});
}

TEST_CASE("the tokenizer drops emoji and symbols", "[unit]") {
  CHECK(Texts("🚀 launch ✨ rocket 👩‍💻") == Strings{"launch", "rocket"});
  CHECK(Texts("a+b=c $5 ©2024") == Strings{"a", "b", "c", "5", "2024"});
  CHECK(Texts("🎉") == Strings{});
}

TEST_CASE("the tokenizer tells numbers and words with digits from words", "[unit]") {
  CHECK(Texts("mp3 2fa 2024 v1.2") == Strings{"mp3", "2fa", "2024", "v1", "2"});
  CHECK(Kinds("mp3 2fa 2024 word") == std::vector<TermKind>{TermKind::kMixed, TermKind::kMixed,
                                                            TermKind::kNumber, TermKind::kWord});
  CHECK(Texts("①②") == Strings{"12"});  // circled digits, NFKC
}

TEST_CASE("the tokenizer skips invalid UTF-8 bytes as separators, never failing", "[unit]") {
  CHECK(Texts("abc\xFF"
              "def") == Strings{"abc", "def"});
  CHECK(Texts("\xC3") == Strings{});                      // a sequence cut short
  CHECK(Texts("x\xC0\xAFy") == Strings{"x", "y"});        // an overlong '/'
  CHECK(Texts("a\xED\xA0\x80z") == Strings{"a", "z"});    // a surrogate
  CHECK(Texts("\x80\x80 ok \xF8\x88") == Strings{"ok"});  // stray continuation bytes
  CHECK(Texts(std::string("nul\0byte", 8)) == Strings{"nul", "byte"});
}

TEST_CASE("the tokenizer drops a term longer than kTermBytesMax rather than truncating it",
          "[unit]") {
  const std::string longest(Tokenizer::kTermBytesMax, 'a');
  const std::string too_long(Tokenizer::kTermBytesMax + 1, 'b');
  CHECK(Texts(longest + " " + too_long + " kept") == Strings{longest, "kept"});
}

TEST_CASE("the tokenizer reads only the first kInputBytesMax bytes", "[unit]") {
  std::string text;
  while (text.size() < Tokenizer::kInputBytesMax) text += "word ";
  text.resize(Tokenizer::kInputBytesMax);
  const size_t words = Texts(text).size();
  CHECK(Texts(text + " beyond").size() == words);
  CHECK(Texts(text + " beyond").back() != "beyond");
}

}  // namespace
}  // namespace skillnode::discovery::text
