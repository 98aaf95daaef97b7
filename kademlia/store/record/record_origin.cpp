// RecordOrigin (record_origin.h): the names of its enums and the check of every field.
#include "kademlia/store/record/record_origin.h"

#include <algorithm>
#include <array>
#include <string>

namespace skillnode::kademlia::store {
namespace {

constexpr std::array<std::string_view, 3> kFormatNames = {"a2a", "mcp-registry", "agent-skills"};
constexpr std::array<std::string_view, 2> kSignatureNames = {"unsigned", "verified"};
constexpr std::array<std::string_view, 3> kStatusNames = {"", "active", "deprecated"};
constexpr std::array<std::string_view, 3> kDomainStateNames = {"none", "verified", "unverified"};

tl::unexpected<transport::Error> Invalid(std::string_view field, const std::string& reason) {
  return transport::Fail(transport::ErrorCode::kInvalidArgument,
                         "origin." + std::string(field) + ": " + reason);
}

template <typename Enum, size_t N>
transport::Result<Enum> ParseName(const std::array<std::string_view, N>& names,
                                  std::string_view text, std::string_view what, size_t first = 0) {
  for (size_t i = first; i < N; ++i) {
    if (names[i] == text) return static_cast<Enum>(i);
  }
  std::string known;
  for (size_t i = first; i < N; ++i) known += (known.empty() ? "" : ", ") + std::string(names[i]);
  return transport::Fail(transport::ErrorCode::kInvalidArgument,
                         std::string(what) + " '" + std::string(text) + "' is not one of " + known);
}

bool Digits(std::string_view text, size_t at, size_t count, int min, int max) {
  if (at + count > text.size()) return false;
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  return value >= min && value <= max;
}

bool IsLabelChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

}  // namespace

std::string_view OriginFormatName(OriginFormat format) {
  return kFormatNames.at(static_cast<size_t>(format));
}

transport::Result<OriginFormat> ParseOriginFormat(std::string_view text) {
  return ParseName<OriginFormat>(kFormatNames, text, "origin format");
}

std::string_view OriginSignatureName(OriginSignature signature) {
  return kSignatureNames.at(static_cast<size_t>(signature));
}

transport::Result<OriginSignature> ParseOriginSignature(std::string_view text) {
  return ParseName<OriginSignature>(kSignatureNames, text, "origin signature");
}

std::string_view McpStatusName(McpStatus status) {
  return kStatusNames.at(static_cast<size_t>(status));
}

std::string_view OriginDomainStateName(OriginDomainState state) {
  return kDomainStateNames.at(static_cast<size_t>(state));
}

transport::Result<McpStatus> ParseMcpStatus(std::string_view text) {
  return ParseName<McpStatus>(kStatusNames, text, "MCP Registry status", 1);
}

bool IsRfc3339DateTime(std::string_view t) {
  // 2026-05-01T10:00:00 is 19 characters; then a fraction, then Z or +hh:mm.
  if (t.size() < 20 || t.size() > kOriginTimeLengthMax) return false;
  if (!Digits(t, 0, 4, 0, 9999) || t[4] != '-' || !Digits(t, 5, 2, 1, 12) || t[7] != '-' ||
      !Digits(t, 8, 2, 1, 31) || (t[10] != 'T' && t[10] != 't') || !Digits(t, 11, 2, 0, 23) ||
      t[13] != ':' || !Digits(t, 14, 2, 0, 59) || t[16] != ':' || !Digits(t, 17, 2, 0, 60)) {
    return false;
  }
  size_t at = 19;
  if (t[at] == '.') {
    const size_t digits_from = ++at;
    while (at < t.size() && t[at] >= '0' && t[at] <= '9') ++at;
    if (at == digits_from) return false;
  }
  if (at == t.size()) return false;
  if (t[at] == 'Z' || t[at] == 'z') return at + 1 == t.size();
  return (t[at] == '+' || t[at] == '-') && at + 6 == t.size() && Digits(t, at + 1, 2, 0, 23) &&
         t[at + 3] == ':' && Digits(t, at + 4, 2, 0, 59);
}

bool IsDomainName(std::string_view text) {
  if (text.empty() || text.size() > kPublisherDomainLengthMax) return false;
  size_t labels = 0;
  bool all_digits = true;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t dot = std::min(text.find('.', start), text.size());
    const std::string_view label = text.substr(start, dot - start);
    if (label.empty() || label.size() > kDomainLabelLengthMax || label.front() == '-' ||
        label.back() == '-' || !std::all_of(label.begin(), label.end(), IsLabelChar)) {
      return false;
    }
    all_digits = all_digits && std::all_of(label.begin(), label.end(),
                                           [](char c) { return c >= '0' && c <= '9'; });
    ++labels;
    start = dot + 1;
  }
  return labels >= 2 && !all_digits;  // "localhost" is no one's; 10.0.0.1 is an address
}

transport::Result<void> ValidateOrigin(const RecordOrigin& o) {
  if (static_cast<size_t>(o.format) >= kFormatNames.size()) {
    return Invalid("format", "is not one of a2a, mcp-registry, agent-skills");
  }
  if (o.source_url.empty()) return Invalid("sourceUrl", "is required");
  if (o.source_url.size() > kOriginUrlLengthMax) {
    return Invalid("sourceUrl", "is " + std::to_string(o.source_url.size()) + " bytes, more than " +
                                    std::to_string(kOriginUrlLengthMax));
  }
  if (std::any_of(o.source_url.begin(), o.source_url.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u <= 0x20 || u == 0x7f;
      })) {
    return Invalid("sourceUrl", "contains a space or a control character");
  }
  if (o.document_size == 0 || o.document_size > kOriginDocumentBytesMax) {
    return Invalid("documentSize", std::to_string(o.document_size) + " bytes is outside 1.." +
                                       std::to_string(kOriginDocumentBytesMax));
  }
  if (static_cast<size_t>(o.signature) >= kSignatureNames.size()) {
    return Invalid("signature", "is not one of unsigned, verified");
  }
  if (!o.publisher_domain.empty() && !IsDomainName(o.publisher_domain)) {
    return Invalid("publisherDomain",
                   "'" + o.publisher_domain.substr(0, kPublisherDomainLengthMax + 1) +
                       "' is not a DNS name (two or more labels of lowercase letters, digits and "
                       "hyphens, not an address; at most " +
                       std::to_string(kPublisherDomainLengthMax) + " characters)");
  }
  if (static_cast<size_t>(o.publisher_domain_state) >= kDomainStateNames.size()) {
    return Invalid("publisherDomainState", "is not one of none, verified, unverified");
  }
  if (o.publisher_domain.empty() != (o.publisher_domain_state == OriginDomainState::kNone)) {
    return Invalid("publisherDomainState", o.publisher_domain.empty()
                                               ? "a state other than none needs a publisherDomain"
                                               : "a publisherDomain needs a state of verified or "
                                                 "unverified");
  }
  const bool mcp = o.format == OriginFormat::kMcpRegistry;
  if (static_cast<size_t>(o.mcp_status) >= kStatusNames.size()) {
    return Invalid("status", "is not one of active, deprecated");
  }
  if (mcp == (o.mcp_status == McpStatus::kNone)) {
    return Invalid("status", mcp ? "an mcp-registry origin needs one (active or deprecated)"
                                 : "only an mcp-registry origin carries one");
  }
  for (auto [field, text] :
       {std::pair{"publishedAt", &o.published_at}, {"updatedAt", &o.updated_at}}) {
    if (text->empty()) continue;
    if (!mcp) return Invalid(field, "only an mcp-registry origin carries one");
    if (!IsRfc3339DateTime(*text)) {
      return Invalid(field, "'" + text->substr(0, kOriginTimeLengthMax + 1) +
                                "' is not an RFC 3339 date-time");
    }
  }
  return {};
}

}  // namespace skillnode::kademlia::store
