// Tokenizer: NFKC, case folding and splitting by Unicode category (utf8proc).
#include "discovery/text/tokenizer.h"

#include <utf8proc.h>

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace skillnode::discovery::text {
namespace {

enum class CharClass { kSeparator, kLetter, kDigit, kMark, kCjk };

// Han (with its extensions and compatibility ideographs), Hiragana, Katakana and Hangul, plus
// the iteration marks 々 〆 〇 that are written inside Japanese words.
bool IsCjk(utf8proc_int32_t cp) {
  return (cp >= 0x3005 && cp <= 0x3007) ||    // 々 〆 〇
         (cp >= 0x3040 && cp <= 0x30FF) ||    // Hiragana, Katakana
         (cp >= 0x31F0 && cp <= 0x31FF) ||    // Katakana phonetic extensions
         (cp >= 0x3400 && cp <= 0x4DBF) ||    // Han extension A
         (cp >= 0x4E00 && cp <= 0x9FFF) ||    // Han unified ideographs
         (cp >= 0xF900 && cp <= 0xFAFF) ||    // Han compatibility ideographs
         (cp >= 0x20000 && cp <= 0x3134F) ||  // Han extensions B to G, compatibility supplement
         (cp >= 0x1100 && cp <= 0x11FF) ||    // Hangul Jamo
         (cp >= 0x3130 && cp <= 0x318F) ||    // Hangul compatibility Jamo
         (cp >= 0xA960 && cp <= 0xA97F) ||    // Hangul Jamo extended A
         (cp >= 0xAC00 && cp <= 0xD7FF);      // Hangul syllables, Jamo extended B
}

CharClass Classify(utf8proc_int32_t cp) {
  switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      return IsCjk(cp) ? CharClass::kCjk : CharClass::kLetter;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return IsCjk(cp) ? CharClass::kCjk : CharClass::kDigit;
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
      return CharClass::kMark;
    default:
      return CharClass::kSeparator;
  }
}

// The first kInputBytesMax bytes of `text`, each invalid byte replaced by a space.
std::string ValidUtf8Prefix(std::string_view text) {
  text = text.substr(0, Tokenizer::kInputBytesMax);
  std::string valid;
  valid.reserve(text.size());
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  size_t at = 0;
  while (at < text.size()) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t length =
        utf8proc_iterate(bytes + at, static_cast<utf8proc_ssize_t>(text.size() - at), &cp);
    if (length <= 0) {
      valid.push_back(' ');
      ++at;
      continue;
    }
    valid.append(text.substr(at, static_cast<size_t>(length)));
    at += static_cast<size_t>(length);
  }
  return valid;
}

// NFKC, case folded, default ignorables removed; empty if utf8proc runs out of memory.
std::string Normalise(const std::string& valid) {
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t length = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(valid.data()),
      static_cast<utf8proc_ssize_t>(valid.size()), &mapped,
      static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT |
                                     UTF8PROC_CASEFOLD | UTF8PROC_IGNORE));
  std::string normalised;
  if (length >= 0) normalised.assign(reinterpret_cast<const char*>(mapped), length);
  std::free(mapped);
  return normalised;
}

// Collects the current run of word characters or of CJK characters and turns it into terms.
class RunCollector {
 public:
  explicit RunCollector(std::vector<Term>& out) : out_(out) {}

  void Add(CharClass cls, std::string_view bytes) {
    switch (cls) {
      case CharClass::kSeparator:
        Flush();
        return;
      case CharClass::kMark:  // joins the character before it, or is dropped
        if (!cjk_.empty()) {
          cjk_.back().append(bytes);
        } else if (!word_.empty()) {
          word_.append(bytes);
        }
        return;
      case CharClass::kCjk:
        if (!word_.empty()) Flush();
        cjk_.emplace_back(bytes);
        return;
      case CharClass::kLetter:
      case CharClass::kDigit:
        if (!cjk_.empty()) Flush();
        word_.append(bytes);
        (cls == CharClass::kLetter ? has_letter_ : has_digit_) = true;
        return;
    }
  }

  void Flush() {
    if (!word_.empty()) {
      const TermKind kind = !has_digit_   ? TermKind::kWord
                            : has_letter_ ? TermKind::kMixed
                                          : TermKind::kNumber;
      Emit(std::move(word_), kind);
    }
    if (cjk_.size() == 1) Emit(std::move(cjk_[0]), TermKind::kCjk);
    for (size_t i = 0; i + 1 < cjk_.size(); ++i) Emit(cjk_[i] + cjk_[i + 1], TermKind::kCjk);
    word_.clear();
    cjk_.clear();
    has_letter_ = has_digit_ = false;
  }

 private:
  void Emit(std::string text, TermKind kind) {
    assert(!text.empty());
    if (text.size() > Tokenizer::kTermBytesMax) return;
    out_.push_back(Term{std::move(text), kind});
  }

  std::vector<Term>& out_;
  std::string word_;
  bool has_letter_ = false;
  bool has_digit_ = false;
  std::vector<std::string> cjk_;  // one entry per character, with its marks
};

}  // namespace

std::vector<Term> Tokenizer::Tokenize(std::string_view text) const {
  const std::string normalised = Normalise(ValidUtf8Prefix(text));
  std::vector<Term> terms;
  RunCollector runs(terms);
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(normalised.data());
  size_t at = 0;
  while (at < normalised.size()) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t length =
        utf8proc_iterate(bytes + at, static_cast<utf8proc_ssize_t>(normalised.size() - at), &cp);
    assert(length > 0);  // utf8proc's own output is valid UTF-8
    runs.Add(Classify(cp), std::string_view(normalised).substr(at, static_cast<size_t>(length)));
    at += static_cast<size_t>(length);
  }
  runs.Flush();
  return terms;
}

}  // namespace skillnode::discovery::text
