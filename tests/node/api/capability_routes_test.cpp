// The capability endpoint's `q` (node/api/capability_routes.h): taken out of the query's
// parameters before the capability document's parser reads them, checked as every surface
// checks it, and refused with the endpoint's invalid_parameter details naming q.
#include "node/api/capability_routes.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "node/api/query_text.h"

namespace skillnode::node::api {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("the capability endpoint's q is taken out of the parameters, its first copy counting",
          "[unit]") {
  Params params = {{"capability", "doc-summary"}, {"q", "summarising pdfs"}, {"q", "second"}};
  const auto text = TakeQueryText(params);
  REQUIRE(text);
  CHECK(*text == "summarising pdfs");
  CHECK(params == Params{{"capability", "doc-summary"}});
  CHECK(discovery::capabilities::ParseCapabilityParams(params));  // no unknown parameter left
  Params none = {{"format", "xml"}};
  CHECK(TakeQueryText(none) == std::string());
  CHECK(none.size() == 1);
}

TEST_CASE("a bad q on the capability endpoint is refused naming q, what was sent kept JSON-safe",
          "[unit]") {
  Params long_q = {{"q", std::string(kQueryTextBytesMax + 1, 'a')}};
  const auto too_long = TakeQueryText(long_q);
  REQUIRE_FALSE(too_long);
  CHECK(too_long.error().parameter == "q");
  CHECK(too_long.error().message == "q must be at most 256 bytes (it has 257)");
  Params bad_bytes = {{"q", "pdf \xC0\xAF"}};
  const auto not_utf8 = TakeQueryText(bad_bytes);
  REQUIRE_FALSE(not_utf8);
  CHECK(not_utf8.error().provided == "(not UTF-8)");
  CHECK(not_utf8.error().message == "q must be UTF-8 text");
}

TEST_CASE("an unknown parameter's allowed list names q beside the document's parameters",
          "[unit]") {
  const auto unknown = discovery::capabilities::ParseCapabilityParams({{"colour", "red"}});
  REQUIRE_FALSE(unknown);
  const auto error = WithQ(unknown.error());
  CHECK(error.allowed.back() == "q");
  CHECK(error.allowed.size() == discovery::capabilities::KnownParams().size() + 1);
  const auto format = discovery::capabilities::ParseCapabilityParams({{"format", "yaml"}});
  REQUIRE_FALSE(format);
  CHECK(WithQ(format.error()).allowed == format.error().allowed);  // a value list stays as is
}

}  // namespace
}  // namespace skillnode::node::api
