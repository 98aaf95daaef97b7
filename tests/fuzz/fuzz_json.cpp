// libFuzzer target for the JSON request bodies: a registration (POST /api/skills,
// discovery/skill_json.h, with its descriptor checked against the Skill Descriptor schema) and a
// search (POST /api/skills/search, node/api/skill_query.h).
//
// Properties checked: neither parser crashes or throws on any bytes; a refusal names a reason;
// an accepted registration has the ids and version the seed requires.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "discovery/skill_json.h"
#include "node/api/skill_query.h"
#include "tests/fuzz/fuzz_die.h"

namespace {

[[noreturn]] void Die(const char* what) { skillnode::fuzz::Die("fuzz_json", what); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skillnode;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto body = discovery::ParseJsonObject(input);
  if (!body) {
    if (body.error().message.empty()) Die("a body refused without saying why");
    return 0;
  }
  if (auto record = discovery::RegistrationFromJson(*body)) {
    if (record->agent_id.empty() || record->skill_id.empty() || record->version.empty()) {
      Die("a registration accepted without agentId, skillId or version");
    }
  } else if (record.error().message.empty()) {
    Die("a registration refused without saying why");
  }
  if (auto query = node::api::QueryFromJson(*body); !query && query.error().message.empty()) {
    Die("a search refused without saying why");
  }
  return 0;
}
