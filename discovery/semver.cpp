#include "discovery/semver.h"

#include <algorithm>
#include <optional>

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

SemVer Version(uint64_t major, uint64_t minor, uint64_t patch,
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
  return Version(major, minor, patch, {"0"});
}

SemVer FullOf(const Partial& p) { return Version(p.major, p.minor, p.patch, p.prerelease); }

int CompareIdentifier(const std::string& a, const std::string& b) {
  const bool a_number = IsDigits(a);
  const bool b_number = IsDigits(b);
  if (a_number && b_number) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
  }
  if (a_number != b_number) return a_number ? -1 : 1;
  return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

}  // namespace

transport::Result<SemVer> SemVer::Parse(std::string_view text) {
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

std::string SemVer::ToString() const {
  std::string out =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  for (size_t i = 0; i < prerelease.size(); ++i) out += (i == 0 ? "-" : ".") + prerelease[i];
  if (!build.empty()) out += "+" + build;
  return out;
}

int CompareSemVer(const SemVer& a, const SemVer& b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  if (a.minor != b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch != b.patch) return a.patch < b.patch ? -1 : 1;
  if (a.prerelease.empty() != b.prerelease.empty()) return a.prerelease.empty() ? 1 : -1;
  const size_t common = std::min(a.prerelease.size(), b.prerelease.size());
  for (size_t i = 0; i < common; ++i) {
    const int c = CompareIdentifier(a.prerelease[i], b.prerelease[i]);
    if (c != 0) return c;
  }
  if (a.prerelease.size() == b.prerelease.size()) return 0;
  return a.prerelease.size() < b.prerelease.size() ? -1 : 1;
}

// ---- Ranges ------------------------------------------------------------------------------

transport::Result<SemverRange> SemverRange::Parse(std::string_view text) {
  if (text.size() > kRangeLengthMax) {
    return Invalid("range", text.substr(0, kErrorExcerptLengthMax), "longer than the limit");
  }
  SemverRange range;
  range.text_ = std::string(text);
  size_t start = 0;
  while (true) {
    const size_t bar = text.find("||", start);
    const std::string_view part =
        text.substr(start, bar == std::string_view::npos ? bar : bar - start);
    auto set = ParseSet(Trim(part));
    if (!set) return tl::unexpected(set.error());
    range.sets_.push_back(std::move(*set));
    if (bar == std::string_view::npos) break;
    start = bar + 2;
  }
  return range;
}

transport::Result<SemverRange::ComparatorSet> SemverRange::ParseSet(std::string_view text) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while ((pos = text.find_first_not_of(kWhitespace, pos)) != std::string_view::npos) {
    const size_t end = text.find_first_of(kWhitespace, pos);
    words.push_back(text.substr(pos, end == std::string_view::npos ? end : end - pos));
    pos = end;
  }
  if (words.empty()) return ComparatorSet{Comparator{}};  // "" means any version
  if (std::find(words.begin(), words.end(), "-") != words.end()) {
    if (words.size() != 3 || words[1] != "-") {
      return Invalid("range", text, "a hyphen range is exactly 'A - B'");
    }
    return ParseHyphen(words[0], words[2]);
  }
  // An operator written apart from its version ("> 1.2", "~ 1.2") belongs to the next word.
  static constexpr std::string_view kOperators[] = {"<", "<=", ">", ">=", "=", "~", "~>", "^"};
  ComparatorSet set;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string token(words[i]);
    if (std::find(std::begin(kOperators), std::end(kOperators), words[i]) != std::end(kOperators)) {
      if (i + 1 == words.size()) return Invalid("range", text, "operator without a version");
      token += words[++i];
    }
    auto comparators = ParseToken(token);
    if (!comparators) return tl::unexpected(comparators.error());
    set.insert(set.end(), comparators->begin(), comparators->end());
  }
  return set;
}

transport::Result<SemverRange::ComparatorSet> SemverRange::ParseHyphen(std::string_view from,
                                                                       std::string_view to) {
  auto low = ParsePartial(from.substr(std::min(from.find_first_not_of("v="), from.size())), from);
  if (!low) return tl::unexpected(low.error());
  auto high = ParsePartial(to.substr(std::min(to.find_first_not_of("v="), to.size())), to);
  if (!high) return tl::unexpected(high.error());
  ComparatorSet set;
  if (low->x_major) {
    // no lower bound
  } else if (low->x_minor) {
    set.push_back({Op::kGe, Version(low->major, 0, 0)});
  } else if (low->x_patch) {
    set.push_back({Op::kGe, Version(low->major, low->minor, 0)});
  } else {
    set.push_back({Op::kGe, FullOf(*low)});
  }
  if (high->x_major) {
    // no upper bound
  } else if (high->x_minor) {
    set.push_back({Op::kLt, LowestOf(high->major + 1, 0, 0)});
  } else if (high->x_patch) {
    set.push_back({Op::kLt, LowestOf(high->major, high->minor + 1, 0)});
  } else {
    set.push_back({Op::kLe, FullOf(*high)});
  }
  if (set.empty()) set.push_back(Comparator{});
  return set;
}

transport::Result<SemverRange::ComparatorSet> SemverRange::ParseToken(std::string_view token) {
  enum class Kind { kPrimitive, kTilde, kCaret } kind = Kind::kPrimitive;
  Op op = Op::kEq;
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
    op = Op::kLe;
  } else if (take(">=")) {
    op = Op::kGe;
  } else if (take("<")) {
    op = Op::kLt;
  } else if (take(">")) {
    op = Op::kGt;
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
    if (kind == Kind::kPrimitive && (op == Op::kGt || op == Op::kLt)) {
      return ComparatorSet{{Op::kLt, LowestOf(0, 0, 0)}};
    }
    return ComparatorSet{Comparator{}};
  }
  if (kind == Kind::kPrimitive && op != Op::kEq) {
    if (!p.AnyX()) return ComparatorSet{{op, FullOf(p)}};
    // A partial version after an operator stands for its lowest or highest member.
    SemVer bound = Version(M, p.x_minor ? 0 : m, 0);
    if (op == Op::kGt || op == Op::kLe) {
      bound = p.x_minor ? Version(M + 1, 0, 0) : Version(M, m + 1, 0);
      op = op == Op::kGt ? Op::kGe : Op::kLt;
    }
    if (op == Op::kLt) bound.prerelease = {"0"};
    return ComparatorSet{{op, bound}};
  }
  if (p.x_minor)
    return ComparatorSet{{Op::kGe, Version(M, 0, 0)}, {Op::kLt, LowestOf(M + 1, 0, 0)}};
  if (kind == Kind::kPrimitive) {
    if (p.x_patch) {
      return ComparatorSet{{Op::kGe, Version(M, m, 0)}, {Op::kLt, LowestOf(M, m + 1, 0)}};
    }
    return ComparatorSet{{Op::kEq, FullOf(p)}};
  }
  const SemVer low = p.x_patch ? Version(M, m, 0) : FullOf(p);
  SemVer high;
  if (kind == Kind::kTilde || (M == 0 && (p.x_patch || m != 0))) {
    high = LowestOf(M, m + 1, 0);  // ~1.2.3, ^0.2.3, ^0.0.x
  } else if (M == 0) {
    high = LowestOf(0, 0, p.patch + 1);  // ^0.0.3
  } else {
    high = LowestOf(M + 1, 0, 0);  // ^1.2.3
  }
  return ComparatorSet{{Op::kGe, low}, {Op::kLt, high}};
}

bool SemverRange::TestComparator(const Comparator& c, const SemVer& v) {
  if (c.op == Op::kAny) return true;
  const int cmp = CompareSemVer(v, c.version);
  switch (c.op) {
    case Op::kEq:
      return cmp == 0;
    case Op::kLt:
      return cmp < 0;
    case Op::kLe:
      return cmp <= 0;
    case Op::kGt:
      return cmp > 0;
    case Op::kGe:
      return cmp >= 0;
    case Op::kAny:
      break;
  }
  return true;
}

bool SemverRange::TestSet(const ComparatorSet& set, const SemVer& v) {
  for (const Comparator& c : set) {
    if (!TestComparator(c, v)) return false;
  }
  if (v.prerelease.empty()) return true;
  // A prerelease is admitted only when a comparator of the set names a prerelease of the same
  // major.minor.patch: ">1.2.3-alpha.3" admits 1.2.3-alpha.7 but not 3.4.5-alpha.9.
  return std::any_of(set.begin(), set.end(), [&v](const Comparator& c) {
    return c.op != Op::kAny && !c.version.prerelease.empty() && c.version.major == v.major &&
           c.version.minor == v.minor && c.version.patch == v.patch;
  });
}

bool SemverRange::Satisfies(const SemVer& version) const {
  return std::any_of(sets_.begin(), sets_.end(),
                     [&version](const ComparatorSet& set) { return TestSet(set, version); });
}

bool SemverRange::Satisfies(std::string_view version) const {
  auto parsed = SemVer::Parse(version);
  return parsed && Satisfies(*parsed);
}

std::string SemverRange::ToString() const {
  static constexpr std::string_view kOpText[] = {"*", "", "<", "<=", ">", ">="};
  std::string out;
  for (size_t s = 0; s < sets_.size(); ++s) {
    if (s > 0) out += "||";
    for (size_t i = 0; i < sets_[s].size(); ++i) {
      const Comparator& c = sets_[s][i];
      if (i > 0) out += ' ';
      out += kOpText[static_cast<size_t>(c.op)];
      if (c.op != Op::kAny) out += c.version.ToString();
    }
  }
  return out;
}

}  // namespace skillnode::discovery
