// RecordOrigin: the names of its enums both ways, and the checks of its text fields.
#include "kademlia/store/record/record_origin.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::kademlia::store {
namespace {

RecordOrigin A2aOrigin() {
  RecordOrigin o;
  o.format = OriginFormat::kA2a;
  o.source_url = "https://agent.example.org/.well-known/agent-card.json";
  o.document_size = 2048;
  o.signature = OriginSignature::kVerified;
  return o;
}

TEST_CASE("origin formats, signature states and MCP statuses parse back from their names",
          "[unit]") {
  for (auto format : {OriginFormat::kA2a, OriginFormat::kMcpRegistry, OriginFormat::kAgentSkills}) {
    CHECK(*ParseOriginFormat(OriginFormatName(format)) == format);
  }
  CHECK(OriginFormatName(OriginFormat::kMcpRegistry) == "mcp-registry");
  for (auto state : {OriginSignature::kUnsigned, OriginSignature::kVerified}) {
    CHECK(*ParseOriginSignature(OriginSignatureName(state)) == state);
  }
  CHECK(*ParseMcpStatus("deprecated") == McpStatus::kDeprecated);
  CHECK_FALSE(ParseMcpStatus(""));  // "none" is no status a registry gives
  CHECK_THAT(ParseOriginFormat("ai-catalog").error().message,
             Catch::Contains("a2a, mcp-registry, agent-skills"));
}

TEST_CASE("an A2A origin needs a source, a document size and nothing of the MCP Registry's",
          "[unit]") {
  CHECK(ValidateOrigin(A2aOrigin()));
  RecordOrigin o = A2aOrigin();
  o.source_url = std::string(kOriginUrlLengthMax + 1, 'u');
  CHECK_THAT(ValidateOrigin(o).error().message, Catch::StartsWith("origin.sourceUrl: is 513"));
  o = A2aOrigin();
  o.document_size = kOriginDocumentBytesMax + 1;
  CHECK_THAT(ValidateOrigin(o).error().message, Catch::StartsWith("origin.documentSize: "));
  o = A2aOrigin();
  o.published_at = "2026-05-01T10:00:00Z";
  CHECK_THAT(ValidateOrigin(o).error().message,
             Catch::StartsWith("origin.publishedAt: only an mcp-registry origin"));
  o = A2aOrigin();
  o.signature = static_cast<OriginSignature>(2);
  CHECK_THAT(ValidateOrigin(o).error().message, Catch::StartsWith("origin.signature: "));
  o = A2aOrigin();
  o.format = static_cast<OriginFormat>(3);
  CHECK_THAT(ValidateOrigin(o).error().message, Catch::StartsWith("origin.format: "));
}

TEST_CASE("a publisher domain comes with whether the importer proved it, and none without one",
          "[unit]") {
  CHECK(OriginDomainStateName(OriginDomainState::kUnverified) == "unverified");
  RecordOrigin o = A2aOrigin();
  CHECK(ValidateOrigin(o));  // no domain, state none
  o.publisher_domain = "agent.example.org";
  CHECK_THAT(ValidateOrigin(o).error().message,
             Catch::StartsWith("origin.publisherDomainState: a publisherDomain needs"));
  for (auto state : {OriginDomainState::kVerified, OriginDomainState::kUnverified}) {
    o.publisher_domain_state = state;
    CHECK(ValidateOrigin(o));
  }
  o.publisher_domain.clear();
  CHECK_THAT(ValidateOrigin(o).error().message,
             Catch::StartsWith("origin.publisherDomainState: a state other than none"));
  o.publisher_domain = "agent.example.org";
  o.publisher_domain_state = static_cast<OriginDomainState>(3);
  CHECK_THAT(ValidateOrigin(o).error().message,
             Catch::StartsWith("origin.publisherDomainState: is not one of"));
}

TEST_CASE("a publisher domain is a lowercase DNS name of two or more labels, not an address",
          "[unit]") {
  for (const char* good : {"example.org", "a.b-c.d", "xn--bcher-kva.example", "node-a.lab",
                           "1.example", "example.123"}) {
    INFO(good);
    CHECK(IsDomainName(good));
  }
  const std::string label(63, 'a');
  CHECK(IsDomainName(label + "." + label + "." + label + "." + std::string(61, 'b')));  // 253
  for (const std::string& bad :
       {std::string(), std::string("Example.org"), std::string("-a.org"), std::string("a-.org"),
        std::string("a..org"), std::string(".org"), std::string("org."), std::string("a_b.org"),
        std::string("a.org:443"), std::string(64, 'a') + ".org", std::string("localhost"),
        std::string("127.0.0.1"), std::string("a.org/x"),
        label + "." + label + "." + label + "." + std::string(62, 'b')}) {
    INFO(bad);
    CHECK_FALSE(IsDomainName(bad));
  }
}

TEST_CASE("MCP Registry timestamps are RFC 3339 date-times as the registry writes them", "[unit]") {
  for (const char* good :
       {"2026-05-01T10:00:00Z", "2025-09-16T16:43:44.243434Z", "2026-12-31t23:59:60z",
        "2026-05-01T10:00:00+05:30", "2026-05-01T10:00:00.1-08:00"}) {
    INFO(good);
    CHECK(IsRfc3339DateTime(good));
  }
  for (const char* bad :
       {"", "2026-05-01", "2026-05-01 10:00:00Z", "2026-13-01T10:00:00Z", "2026-05-32T10:00:00Z",
        "2026-05-01T24:00:00Z", "2026-05-01T10:00:00", "2026-05-01T10:00:00.Z",
        "2026-05-01T10:00:00+0530", "2026-05-01T10:00:00Zjunk"}) {
    INFO(bad);
    CHECK_FALSE(IsRfc3339DateTime(bad));
  }
}

}  // namespace
}  // namespace skillnode::kademlia::store
