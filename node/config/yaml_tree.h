// YamlValue: a parsed YAML document as plain data, and the one place yaml-cpp is called.
//
// yaml-cpp reports errors by throwing; ParseYaml catches everything at this boundary and
// returns an error naming the line and column, so no exception crosses into the rest of the
// daemon (HOUSE_STYLE "Errors"). The tree keeps what the configuration reader needs to name
// problems precisely: map entries in file order, line and column of every value, and whether
// a scalar was quoted (so `port: "80"` can be told from `port: 80`).
#ifndef SKILLNODE_NODE_CONFIG_YAML_TREE_H_
#define SKILLNODE_NODE_CONFIG_YAML_TREE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transport/result.h"

namespace skillnode::node {

// Nesting deeper than any configuration needs is refused rather than recursed into.
constexpr int kYamlDepthMax = 32;

struct YamlValue {
  enum class Kind { kNull, kScalar, kSequence, kMap };

  Kind kind = Kind::kNull;
  std::string scalar;            // kScalar: the text, quotes removed
  bool quoted = false;           // kScalar: written in quotes (or as a block scalar)
  std::vector<YamlValue> items;  // kSequence
  std::vector<std::pair<std::string, YamlValue>> entries;  // kMap, in file order
  int line = 0;                                            // 1-based; 0 when unknown
  int column = 0;

  // The entry for `key` in a map; nullptr when absent or not a map.
  const YamlValue* Find(std::string_view key) const;
  // "a map", "a list", "an empty value", "'text'": for error messages.
  std::string Describe() const;
};

// One YAML document. An empty document is a kNull value. Duplicate keys in a map and keys
// that are not scalars are errors, as is nesting deeper than kYamlDepthMax.
[[nodiscard]] Result<YamlValue> ParseYaml(std::string_view text);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_CONFIG_YAML_TREE_H_
