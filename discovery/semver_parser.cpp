// SemverParser (semver_parser.h): version and range text to values.
#include "discovery/semver_parser.h"

#include <algorithm>
#include <optional>
#include <string>

namespace skillnode::discovery {
namespace {

constexpr std::string_view kWhitespace = " \t\n\r\f\v";
// How much of an over-long text an error message quotes.
constexpr size_t kErrorExcerptLengthMax = 32;

std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(kWhitespace);
  return text.substr(first, last - first + 1);
}

bool IsDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsIdentifierChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

tl::unexpected<transport::Error> Invalid(std::string_view what, std::string_view text,
                                         std::string_view reason) {
  return transport::Fail(
      transport::ErrorCode::kInvalidArgument,
      std::string(what) + " '" + std::string(text) + "': " + std::string(reason));
}

// Dot-separated identifiers of [0-9A-Za-z-]; prerelease numbers may not have leading zeros.
std::optional<std::vector<std::string>> SplitIdentifiers(std::string_view text, bool prerelease) {
  std::vector<std::string> ids;
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const std::string_view id =
        text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (id.empty() || !std::all_of(id.begin(), id.end(), IsIdentifierChar)) return std::nullopt;
    if (prerelease && IsDigits(id) && id.size() > 1 && id[0] == '0') return std::nullopt;
    ids.emplace_back(id);
    if (dot == std::string_view::npos) return ids;
    start = dot + 1;
  }
}

// A version that may leave out parts or write them as x, X or *: "1", "1.2.x", "1.2.3-rc.1".
struct Partial {
  bool x_major = true;
  bool x_minor = true;
  bool x_patch = true;
  uint64_t major = 0;
  uint64_t minor = 0;
  uint64_t patch = 0;
  std::vector<std::string> prerelease;
  std::string build;
  bool AnyX() const { return x_major || x_minor || x_patch; }
};

// One major/minor/patch part: a number without leading zeros, or a wildcard.
transport::Result<std::optional<uint64_t>> ParsePart(std::string_view part, std::string_view text) {
  if (part == "x" || part == "X" || part == "*") return std::optional<uint64_t>();
  // Built with append: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(...).
  std::string quoted(1, '\'');
  quoted.append(part).append("'");
  if (!IsDigits(part)) return Invalid("version", text, quoted.append(" is no number"));
  if (part.size() > 1 && part[0] == '0') {
    return Invalid("version", text, quoted.append(" has a leading zero"));
  }
  uint64_t value = 0;
  for (const char c : part) {
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > kSemVerNumberMax) return Invalid("version", text, "number too large");
  }
  return std::optional<uint64_t>(value);
}

// Errors name `shown`, the text as the caller wrote it.
transport::Result<Partial> ParsePartial(std::string_view text, std::string_view shown) {
  if (text.empty()) return Invalid("version", shown, "is empty");
  if (text.size() > kSemVerLengthMax)
    return Invalid("version", shown.substr(0, kErrorExcerptLengthMax), "too long");
  Partial p;
  const size_t plus = text.find('+');
  std::string_view core = text.substr(0, plus);
  if (plus != std::string_view::npos) {
    if (!SplitIdentifiers(text.substr(plus + 1), false)) {
      return Invalid("version", shown, "bad build metadata");
    }
    p.build = std::string(text.substr(plus + 1));
  }
  const size_t dash = core.find('-');
  if (dash != std::string_view::npos) {
    auto ids = SplitIdentifiers(core.substr(dash + 1), true);
    if (!ids) return Invalid("version", shown, "bad prerelease");
    p.prerelease = std::move(*ids);
    core = core.substr(0, dash);
  }
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = core.find('.', start);
    parts.push_back(core.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() > 3) return Invalid("version", shown, "more than three numbers");
  if (parts.size() < 3 && (!p.prerelease.empty() || !p.build.empty())) {
    return Invalid("version", shown, "prerelease or build without a patch number");
  }
  bool* const x_flags[] = {&p.x_major, &p.x_minor, &p.x_patch};
  uint64_t* const numbers[] = {&p.major, &p.minor, &p.patch};
  bool wildcard = false;  // a part after a wildcard is a wildcard too, whatever is written
  for (size_t i = 0; i < parts.size(); ++i) {
    auto part = ParsePart(parts[i], shown);
    if (!part) return tl::unexpected(part.error());
    wildcard = wildcard || !part->has_value();
    *x_flags[i] = wildcard;
    if (!wildcard) *numbers[i] = **part;
  }
  return p;
}

SemVer MakeVersion(uint64_t major, uint64_t minor, uint64_t patch,
                   std::vector<std::string> prerelease = {}) {
  SemVer v;
  v.major = major;
  v.minor = minor;
  v.patch = patch;
  v.prerelease = std::move(prerelease);
  return v;
}

// The lowest prerelease of a version: "<2.0.0-0" excludes 2.0.0's prereleases too.
SemVer LowestOf(uint64_t major, uint64_t minor, uint64_t patch) {
  return MakeVersion(major, minor, patch, {"0"});
}

SemVer FullOf(const Partial& p) { return MakeVersion(p.major, p.minor, p.patch, p.prerelease); }

}  // namespace

bool IsNumericIdentifier(std::string_view identifier) { return IsDigits(identifier); }

transport::Result<SemVer> SemverParser::Version(std::string_view text) {
  std::string_view rest = Trim(text);
  if (!rest.empty() && rest[0] == '=') rest.remove_prefix(1);
  if (!rest.empty() && rest[0] == 'v') rest.remove_prefix(1);
  auto partial = ParsePartial(rest, text);
  if (!partial) return tl::unexpected(partial.error());
  if (partial->AnyX()) return Invalid("version", text, "needs major, minor and patch numbers");
  SemVer v = FullOf(*partial);
  v.build = std::move(partial->build);
  return v;
}

transport::Result<std::vector<SemverComparatorSet>> SemverParser::Range(std::string_view text) {
  if (text.size() > kRangeLengthMax) {
    return Invalid("range", text.substr(0, kErrorExcerptLengthMax), "longer than the limit");
  }
  std::vector<SemverComparatorSet> sets;
  size_t start = 0;
  while (true) {
    const size_t bar = text.find("||", start);
    const std::string_view part =
        text.substr(start, bar == std::string_view::npos ? bar : bar - start);
    auto set = Set(Trim(part));
    if (!set) return tl::unexpected(set.error());
    sets.push_back(std::move(*set));
    if (bar == std::string_view::npos) break;
    start = bar + 2;
  }
  return sets;
}

transport::Result<SemverComparatorSet> SemverParser::Set(std::string_view text) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while ((pos = text.find_first_not_of(kWhitespace, pos)) != std::string_view::npos) {
    const size_t end = text.find_first_of(kWhitespace, pos);
    words.push_back(text.substr(pos, end == std::string_view::npos ? end : end - pos));
    pos = end;
  }
  if (words.empty()) return SemverComparatorSet{SemverComparator{}};  // "" means any version
  if (std::find(words.begin(), words.end(), "-") != words.end()) {
    if (words.size() != 3 || words[1] != "-") {
      return Invalid("range", text, "a hyphen range is exactly 'A - B'");
    }
    return Hyphen(words[0], words[2]);
  }
  // An operator written apart from its version ("> 1.2", "~ 1.2") belongs to the next word.
  static constexpr std::string_view kOperators[] = {"<", "<=", ">", ">=", "=", "~", "~>", "^"};
  SemverComparatorSet set;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string token(words[i]);
    if (std::find(std::begin(kOperators), std::end(kOperators), words[i]) != std::end(kOperators)) {
      if (i + 1 == words.size()) return Invalid("range", text, "operator without a version");
      token += words[++i];
    }
    auto comparators = Token(token);
    if (!comparators) return tl::unexpected(comparators.error());
    set.insert(set.end(), comparators->begin(), comparators->end());
  }
  return set;
}

transport::Result<SemverComparatorSet> SemverParser::Hyphen(std::string_view from,
                                                            std::string_view to) {
  auto low = ParsePartial(from.substr(std::min(from.find_first_not_of("v="), from.size())), from);
  if (!low) return tl::unexpected(low.error());
  auto high = ParsePartial(to.substr(std::min(to.find_first_not_of("v="), to.size())), to);
  if (!high) return tl::unexpected(high.error());
  SemverComparatorSet set;
  if (low->x_major) {
    // no lower bound
  } else if (low->x_minor) {
    set.push_back({SemverOp::kGe, MakeVersion(low->major, 0, 0)});
  } else if (low->x_patch) {
    set.push_back({SemverOp::kGe, MakeVersion(low->major, low->minor, 0)});
  } else {
    set.push_back({SemverOp::kGe, FullOf(*low)});
  }
  if (high->x_major) {
    // no upper bound
  } else if (high->x_minor) {
    set.push_back({SemverOp::kLt, LowestOf(high->major + 1, 0, 0)});
  } else if (high->x_patch) {
    set.push_back({SemverOp::kLt, LowestOf(high->major, high->minor + 1, 0)});
  } else {
    set.push_back({SemverOp::kLe, FullOf(*high)});
  }
  if (set.empty()) set.push_back(SemverComparator{});
  return set;
}

transport::Result<SemverComparatorSet> SemverParser::Token(std::string_view token) {
  enum class Kind { kPrimitive, kTilde, kCaret } kind = Kind::kPrimitive;
  SemverOp op = SemverOp::kEq;
  std::string_view rest = token;
  auto take = [&rest](std::string_view prefix) {
    if (!rest.starts_with(prefix)) return false;
    rest.remove_prefix(prefix.size());
    return true;
  };
  if (take("~>") || take("~")) {
    kind = Kind::kTilde;
  } else if (take("^")) {
    kind = Kind::kCaret;
  } else if (take("<=")) {
    op = SemverOp::kLe;
  } else if (take(">=")) {
    op = SemverOp::kGe;
  } else if (take("<")) {
    op = SemverOp::kLt;
  } else if (take(">")) {
    op = SemverOp::kGt;
  } else {
    take("=");
  }
  rest.remove_prefix(std::min(rest.find_first_not_of("v="), rest.size()));
  if (rest.empty()) return Invalid("comparator", token, "operator without a version");
  auto parsed = ParsePartial(rest, token);
  if (!parsed) return Invalid("comparator", token, parsed.error().message);
  const Partial& p = *parsed;
  const uint64_t M = p.major;
  const uint64_t m = p.minor;
  if (p.x_major) {
    // "*", "~*", "^x": any version; but ">*" and "<*" admit none.
    if (kind == Kind::kPrimitive && (op == SemverOp::kGt || op == SemverOp::kLt)) {
      return SemverComparatorSet{{SemverOp::kLt, LowestOf(0, 0, 0)}};
    }
    return SemverComparatorSet{SemverComparator{}};
  }
  if (kind == Kind::kPrimitive && op != SemverOp::kEq) {
    if (!p.AnyX()) return SemverComparatorSet{{op, FullOf(p)}};
    // A partial version after an operator stands for its lowest or highest member.
    SemVer bound = MakeVersion(M, p.x_minor ? 0 : m, 0);
    if (op == SemverOp::kGt || op == SemverOp::kLe) {
      bound = p.x_minor ? MakeVersion(M + 1, 0, 0) : MakeVersion(M, m + 1, 0);
      op = op == SemverOp::kGt ? SemverOp::kGe : SemverOp::kLt;
    }
    if (op == SemverOp::kLt) bound.prerelease = {"0"};
    return SemverComparatorSet{{op, bound}};
  }
  if (p.x_minor) {
    return SemverComparatorSet{{SemverOp::kGe, MakeVersion(M, 0, 0)},
                               {SemverOp::kLt, LowestOf(M + 1, 0, 0)}};
  }
  if (kind == Kind::kPrimitive) {
    if (p.x_patch) {
      return SemverComparatorSet{{SemverOp::kGe, MakeVersion(M, m, 0)},
                                 {SemverOp::kLt, LowestOf(M, m + 1, 0)}};
    }
    return SemverComparatorSet{{SemverOp::kEq, FullOf(p)}};
  }
  const SemVer low = p.x_patch ? MakeVersion(M, m, 0) : FullOf(p);
  SemVer high;
  if (kind == Kind::kTilde || (M == 0 && (p.x_patch || m != 0))) {
    high = LowestOf(M, m + 1, 0);  // ~1.2.3, ^0.2.3, ^0.0.x
  } else if (M == 0) {
    high = LowestOf(0, 0, p.patch + 1);  // ^0.0.3
  } else {
    high = LowestOf(M + 1, 0, 0);  // ^1.2.3
  }
  return SemverComparatorSet{{SemverOp::kGe, low}, {SemverOp::kLt, high}};
}

}  // namespace skillnode::discovery
