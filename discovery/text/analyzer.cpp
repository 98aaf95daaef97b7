// Analyzer: Tokenizer, StopWords and Stemmer in one call.
#include "discovery/text/analyzer.h"

#include <utility>

#include "discovery/text/english_spelling.h"

namespace skillnode::discovery::text {

Analyzer::Analyzer(StopWords stop_words, Stemmer stemmer)
    : stop_words_(std::move(stop_words)),
      stemmer_(std::move(stemmer)),
      fold_british_(stemmer_.language() == "english" || stemmer_.language() == "porter") {}

transport::Result<Analyzer> Analyzer::Create(std::string_view language) {
  transport::Result<Stemmer> stemmer = Stemmer::Create(language);
  if (!stemmer) return tl::unexpected(std::move(stemmer.error()));
  return Analyzer(StopWords::ForLanguage(language), std::move(*stemmer));
}

std::vector<std::string> Analyzer::Analyze(std::string_view text) {
  std::vector<std::string> terms;
  for (AnalyzedWord& word : AnalyzeWords(text)) terms.push_back(std::move(word.term));
  return terms;
}

std::vector<AnalyzedWord> Analyzer::AnalyzeWords(std::string_view text) {
  std::vector<AnalyzedWord> words;
  for (Term& term : stop_words_.Filter(tokenizer_.Tokenize(text))) {
    std::string surface = term.text;
    if (fold_british_ && term.kind == TermKind::kWord) {
      term.text = EnglishSpelling::FoldAcronymPlural(EnglishSpelling::FoldBritish(term.text));
    }
    std::string stem = stemmer_.Stem(term);
    words.push_back(
        AnalyzedWord{stem.empty() ? std::move(term.text) : std::move(stem), std::move(surface)});
  }
  return words;
}

}  // namespace skillnode::discovery::text
