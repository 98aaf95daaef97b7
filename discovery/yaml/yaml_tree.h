// YamlValue: a parsed YAML document as plain data, and the one place yaml-cpp is called.
//
// yaml-cpp reports errors by throwing; ParseYaml catches everything at this boundary and
// returns an error naming the line and column, so no exception crosses into the rest of the
// daemon (docs/architecture.md "Code rules"). It serves the node's configuration file
// (node/config) and SKILL.md front matter (discovery/skillmd), so it sits here, below both
// (docs/architecture.md "Layers").
// The tree keeps what its readers need to name problems precisely: map entries in file
// order, line and column of every value, and whether a scalar was quoted (so `port: "80"` can
// be told from `port: 80`).
#ifndef SKILLNODE_DISCOVERY_YAML_YAML_TREE_H_
#define SKILLNODE_DISCOVERY_YAML_YAML_TREE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transport/result.h"

namespace skillnode::discovery::yaml {

// Nesting deeper than any configuration needs is refused rather than recursed into.
constexpr int kYamlDepthMax = 32;

struct YamlEntry;

struct YamlValue {
  enum class Kind { kNull, kScalar, kSequence, kMap };

  Kind kind = Kind::kNull;
  std::string scalar;              // kScalar: the text, quotes removed
  bool quoted = false;             // kScalar: written in quotes (or as a block scalar)
  std::vector<YamlValue> items;    // kSequence
  std::vector<YamlEntry> entries;  // kMap, in file order
  int line = 0;                    // 1-based; 0 when unknown
  int column = 0;

  // The entry for `key` in a map; nullptr when absent or not a map.
  const YamlValue* Find(std::string_view key) const;
  // "a map", "a list", "an empty value", "'text'": for error messages.
  std::string Describe() const;
};

// One key of a map and its value (a struct rather than std::pair, which needs YamlValue
// complete where YamlValue declares its entries: clang refuses that).
struct YamlEntry {
  std::string key;
  YamlValue value;
};

// One YAML document. An empty document is a kNull value. Duplicate keys in a map and keys
// that are not scalars are errors, as is nesting deeper than kYamlDepthMax. Lines (in values
// and in errors) count from `first_line`: a document embedded in a larger file (SKILL.md front
// matter) reports the file's line numbers.
[[nodiscard]] transport::Result<YamlValue> ParseYaml(std::string_view text, int first_line = 1);

}  // namespace skillnode::discovery::yaml

#endif  // SKILLNODE_DISCOVERY_YAML_YAML_TREE_H_
