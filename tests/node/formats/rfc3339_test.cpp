// RFC 3339 timestamps of the formats (node/formats/rfc3339.h): written in UTC with
// milliseconds, read back in every form RFC 3339 allows, and nothing else read.
#include "node/formats/rfc3339.h"

#include <catch2/catch.hpp>

namespace skillnode::node::formats {
namespace {

TEST_CASE("a timestamp is written in UTC with three fraction digits", "[unit]") {
  CHECK(Rfc3339Ms(0) == "1970-01-01T00:00:00.000Z");
  CHECK(Rfc3339Ms(1754572504280) == "2025-08-07T13:15:04.280Z");
  CHECK(Rfc3339Ms(951782400005) == "2000-02-29T00:00:00.005Z");
}

TEST_CASE("what is written reads back to the same millisecond", "[unit]") {
  for (uint64_t ms : {uint64_t{0}, uint64_t{1754572504280}, uint64_t{4102444799999}}) {
    CHECK(ParseRfc3339Ms(Rfc3339Ms(ms)) == ms);
  }
}

TEST_CASE("an RFC 3339 date-time reads with any fraction, offset and separator", "[unit]") {
  CHECK(ParseRfc3339Ms("2025-08-07T13:15:04Z") == 1754572504000);
  CHECK(ParseRfc3339Ms("2025-08-07t13:15:04.28z") == 1754572504280);
  CHECK(ParseRfc3339Ms("2025-08-07 13:15:04.280123456Z") == 1754572504280);
  CHECK(ParseRfc3339Ms("2025-08-07T15:15:04.280+02:00") == 1754572504280);
  CHECK(ParseRfc3339Ms("2025-08-07T08:45:04.280-04:30") == 1754572504280);
  // A leap second is the last second of its minute; a time before the epoch is 0.
  CHECK(ParseRfc3339Ms("2016-12-31T23:59:60Z") == 1483228799000);
  CHECK(ParseRfc3339Ms("1960-01-01T00:00:00Z") == 0);
}

TEST_CASE("text that is not an RFC 3339 date-time does not read", "[unit]") {
  for (const char* bad :
       {"", "yesterday", "2025-08-07", "2025-08-07T13:15:04", "2025-08-07T13:15Z",
        "2025-13-01T00:00:00Z", "2025-02-30T00:00:00Z", "2025-08-07T24:00:00Z",
        "2025-08-07T13:60:00Z", "2025-08-07T13:15:04.Z", "2025-08-07T13:15:04+0200",
        "2025-08-07T13:15:04Z ", "2025-08-07X13:15:04Z", "+2025-08-07T13:15:04Z",
        "2025-08-07T13:15:04.0000000000000000000000000000000000000000000000000000000Z"}) {
    INFO(bad);
    CHECK_FALSE(ParseRfc3339Ms(bad).has_value());
  }
}

}  // namespace
}  // namespace skillnode::node::formats
