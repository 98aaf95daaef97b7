// FieldReader: typed reads of an imported document's fields, each failure naming the field's
// path ("skills[2].tags[0]: not a string"), so that a bad entry is reported where it is.
//
// A reader reads one JSON object; At() gives a reader of a nested object that shares the
// first-failure slot, so a document's reader reads every field in a straight line and checks
// ok() once at the end. After a failure, reads return empty values and later failures are not
// recorded: the first one is what the error names.
//
// Pure: no I/O. The JSON must outlive its readers.
#ifndef SKILLNODE_NODE_IMPORTERS_DOCUMENTS_JSON_FIELDS_H_
#define SKILLNODE_NODE_IMPORTERS_DOCUMENTS_JSON_FIELDS_H_

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers::documents {

enum class Presence { kRequired, kOptional };

class FieldReader {
 public:
  // Reads `object` at `path` ("" for a document's root).
  FieldReader(const nlohmann::json& object, std::string path);
  // A reader of `object`, which sits at `path`, sharing this reader's first failure.
  FieldReader At(const nlohmann::json& object, std::string path) const;

  // A string of at most `length_max` bytes; kRequired also refuses an empty one.
  std::string String(std::string_view name, Presence presence, size_t length_max);
  // An optional string: nullopt when absent or null.
  std::optional<std::string> MaybeString(std::string_view name, size_t length_max);
  // An array of at most `items_max` strings, each at most `length_max` bytes.
  std::vector<std::string> Strings(std::string_view name, Presence presence, size_t items_max,
                                   size_t length_max);
  // An array of at most `items_max` items (an empty one when absent and optional).
  const nlohmann::json& Array(std::string_view name, Presence presence, size_t items_max);
  // An object when present (nullptr when absent or null).
  const nlohmann::json* MaybeObject(std::string_view name);

  // Records a failure at `path` unless one is recorded already.
  void Fail(std::string_view path, std::string_view reason);
  bool ok() const { return !error_->has_value(); }
  // The first failure (kParse), "path: reason". Only when !ok().
  const transport::Error& error() const;
  tl::unexpected<transport::Error> Unexpected() const { return tl::unexpected(error()); }

  std::string PathOf(std::string_view name) const;
  static std::string ItemPath(std::string_view array_path, size_t index);

 private:
  FieldReader(const nlohmann::json& object, std::string path,
              std::shared_ptr<std::optional<transport::Error>> error);
  // The field, or nullptr when absent, null, or after a failure.
  const nlohmann::json* Find(std::string_view name);

  const nlohmann::json& object_;
  std::string path_;
  std::shared_ptr<std::optional<transport::Error>> error_;
};

}  // namespace skillnode::node::importers::documents

#endif  // SKILLNODE_NODE_IMPORTERS_DOCUMENTS_JSON_FIELDS_H_
