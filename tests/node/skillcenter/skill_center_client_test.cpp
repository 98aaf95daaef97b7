// What the SkillCenter stage asks a catalog (node/skillcenter/skill_center_client.h): the
// query's filters, and the words of its free text q as keywords, since the catalog protocol
// (skill-discovery-protocol §7.2) has no free text.
#include "node/skillcenter/skill_center_client.h"

#include <catch2/catch.hpp>

namespace skillnode::node::skillcenter {
namespace {

using nlohmann::json;

TEST_CASE("a catalog is asked for q's words as keywords, beside the query's own keywords",
          "[unit]") {
  discovery::SkillQuery query;
  query.text = "  summarising\tpdfs ";
  query.capabilities = {"doc-summary"};
  CHECK(CatalogBody(query) ==
        json{{"capabilities", {"doc-summary"}}, {"keywords", {"summarising", "pdfs"}}});
  query.keywords = {"acme"};
  CHECK(CatalogBody(query).at("keywords") == json{"acme", "summarising", "pdfs"});
}

TEST_CASE("a catalog query without q is the protocol's body unchanged", "[unit]") {
  discovery::SkillQuery query;
  query.scenes = {"office"};
  CHECK(CatalogBody(query) == json{{"scenes", {"office"}}});
  CHECK(CatalogBody(discovery::SkillQuery{}) == json::object());
}

}  // namespace
}  // namespace skillnode::node::skillcenter
