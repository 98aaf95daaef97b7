// The seed's discovery error codes (spec §12.1) and the HTTP status each is answered with.
#include "discovery/search/search_types.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery::search {
namespace {

TEST_CASE("each discovery error has the seed's code and its HTTP status", "[unit]") {
  struct Row {
    DiscError error;
    const char* code;
    int status;
  };
  for (const Row& row :
       {Row{DiscError::kTimeout, "DISC_001", 504}, Row{DiscError::kNoSkills, "DISC_002", 404},
        Row{DiscError::kRegistrationFailed, "DISC_003", 400},
        Row{DiscError::kVerification, "DISC_004", 502}, Row{DiscError::kNetwork, "DISC_005", 503},
        Row{DiscError::kUnavailable, "DISC_006", 503}}) {
    CHECK(DiscCode(row.error) == row.code);
    CHECK(DiscHttpStatus(row.error) == row.status);
  }
}

}  // namespace
}  // namespace skillnode::discovery::search
