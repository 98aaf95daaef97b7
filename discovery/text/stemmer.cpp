// Stemmer: libstemmer's sb_stemmer behind RAII, applied to letter-only words.
#include "discovery/text/stemmer.h"

#include <libstemmer.h>

#include <algorithm>
#include <cassert>
#include <utility>

namespace skillnode::discovery::text {

void Stemmer::Deleter::operator()(sb_stemmer* stemmer) const { sb_stemmer_delete(stemmer); }

Stemmer::Stemmer(std::string language, sb_stemmer* stemmer)
    : language_(std::move(language)), stemmer_(stemmer) {
  assert(stemmer_ != nullptr);
}

std::vector<std::string> Stemmer::Languages() {
  std::vector<std::string> languages;
  for (const char** name = sb_stemmer_list(); *name != nullptr; ++name) {
    languages.emplace_back(*name);
  }
  std::sort(languages.begin(), languages.end());
  return languages;
}

transport::Result<Stemmer> Stemmer::Create(std::string_view language) {
  const std::vector<std::string> languages = Languages();
  if (std::find(languages.begin(), languages.end(), language) == languages.end()) {
    std::string known;
    for (const std::string& name : languages) known += (known.empty() ? "" : ", ") + name;
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        "no stemmer for language \"" + std::string(language) + "\"; libstemmer has: " + known);
  }
  const std::string name(language);
  sb_stemmer* stemmer = sb_stemmer_new(name.c_str(), "UTF_8");
  // A listed language only fails for want of memory.
  if (stemmer == nullptr) {
    return transport::Fail(transport::ErrorCode::kInternal,
                           "libstemmer could not create the stemmer for " + name);
  }
  return Stemmer(name, stemmer);
}

std::string Stemmer::Stem(const Term& term) {
  if (term.kind != TermKind::kWord) return term.text;
  const sb_symbol* stem =
      sb_stemmer_stem(stemmer_.get(), reinterpret_cast<const sb_symbol*>(term.text.data()),
                      static_cast<int>(term.text.size()));
  if (stem == nullptr) return term.text;  // out of memory: the word itself still matches itself
  const int length = sb_stemmer_length(stemmer_.get());
  assert(length >= 0);
  return std::string(reinterpret_cast<const char*>(stem), static_cast<size_t>(length));
}

}  // namespace skillnode::discovery::text
