#include "node/daemon/node_info_aliases.h"

#include <iterator>
#include <string>

namespace skillnode::node::daemon {
namespace {

// Calls `visit` on each object at `path` under `json` ("lan.peers[]": each element of the array
// lan.peers); a missing member or a value of another type is no object.
template <typename Visit>
void ForEachObjectAt(nlohmann::json& json, std::string_view path, const Visit& visit) {
  if (path.empty()) {
    if (json.is_object()) visit(json);
    return;
  }
  const size_t dot = path.find('.');
  std::string_view member = path.substr(0, dot);
  const std::string_view rest = dot == std::string_view::npos ? "" : path.substr(dot + 1);
  const bool each = member.ends_with("[]");
  if (each) member.remove_suffix(2);
  if (!json.is_object()) return;
  const auto found = json.find(std::string(member));
  if (found == json.end()) return;
  if (!each) return ForEachObjectAt(*found, rest, visit);
  if (!found->is_array()) return;
  for (nlohmann::json& element : *found) ForEachObjectAt(element, rest, visit);
}

}  // namespace

void AddOldNodeInfoNames(nlohmann::json& info) {
  // Nested objects first (the table's order), so an old-named copy of an object holds both.
  for (const NodeInfoAlias& alias : kNodeInfoAliases) {
    ForEachObjectAt(info, alias.object, [&alias](nlohmann::json& object) {
      const auto found = object.find(alias.name);
      if (found != object.end()) object[alias.old_name] = *found;
    });
  }
}

void UseNewNodeInfoNames(nlohmann::json& info) {
  // Enclosing objects first (the table backwards), so that a nested path finds its object
  // under the new name.
  for (auto alias = std::rbegin(kNodeInfoAliases); alias != std::rend(kNodeInfoAliases); ++alias) {
    ForEachObjectAt(info, alias->object, [&alias](nlohmann::json& object) {
      const auto old = object.find(alias->old_name);
      if (old == object.end()) return;
      if (!object.contains(alias->name)) object[alias->name] = std::move(*old);
      object.erase(alias->old_name);
    });
  }
}

bool IsOldNodeInfoName(std::string_view object, std::string_view name) {
  for (const NodeInfoAlias& alias : kNodeInfoAliases) {
    if (object == alias.object && name == alias.old_name) return true;
  }
  return false;
}

}  // namespace skillnode::node::daemon
