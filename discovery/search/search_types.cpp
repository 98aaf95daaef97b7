// The seed's discovery error codes and the HTTP status each is answered with (spec §12.1).
#include "discovery/search/search_types.h"

namespace skillnode::discovery::search {

std::string_view DiscCode(DiscError error) {
  switch (error) {
    case DiscError::kTimeout:
      return "DISC_001";
    case DiscError::kNoSkills:
      return "DISC_002";
    case DiscError::kRegistrationFailed:
      return "DISC_003";
    case DiscError::kVerification:
      return "DISC_004";
    case DiscError::kNetwork:
      return "DISC_005";
    case DiscError::kUnavailable:
      return "DISC_006";
  }
  return "DISC_005";
}

int DiscHttpStatus(DiscError error) {
  switch (error) {
    case DiscError::kTimeout:
      return 504;
    case DiscError::kNoSkills:
      return 404;
    case DiscError::kRegistrationFailed:
      return 400;
    case DiscError::kVerification:
      return 502;
    case DiscError::kNetwork:
    case DiscError::kUnavailable:
      return 503;
  }
  return 503;
}

}  // namespace skillnode::discovery::search
