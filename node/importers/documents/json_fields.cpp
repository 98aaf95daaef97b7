#include "node/importers/documents/json_fields.h"

#include <cassert>
#include <utility>

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

const json& EmptyArray() {
  static const json empty = json::array();
  return empty;
}

}  // namespace

FieldReader::FieldReader(const json& object, std::string path)
    : FieldReader(object, std::move(path), std::make_shared<std::optional<transport::Error>>()) {}

FieldReader::FieldReader(const json& object, std::string path,
                         std::shared_ptr<std::optional<transport::Error>> error)
    : object_(object), path_(std::move(path)), error_(std::move(error)) {
  if (!object_.is_object()) Fail(path_.empty() ? "the document" : path_, "not an object");
}

FieldReader FieldReader::At(const json& object, std::string path) const {
  return FieldReader(object, std::move(path), error_);
}

std::string FieldReader::PathOf(std::string_view name) const {
  if (path_.empty()) return std::string(name);
  return path_ + "." + std::string(name);
}

std::string FieldReader::ItemPath(std::string_view array_path, size_t index) {
  return std::string(array_path) + "[" + std::to_string(index) + "]";
}

void FieldReader::Fail(std::string_view path, std::string_view reason) {
  if (error_->has_value()) return;
  *error_ = transport::Error{transport::ErrorCode::kParse,
                             std::string(path) + ": " + std::string(reason)};
}

const transport::Error& FieldReader::error() const {
  assert(error_->has_value());
  return **error_;
}

const json* FieldReader::Find(std::string_view name) {
  if (!ok() || !object_.is_object()) return nullptr;
  const auto it = object_.find(name);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

std::optional<std::string> FieldReader::MaybeString(std::string_view name, size_t length_max) {
  const json* field = Find(name);
  if (field == nullptr) return std::nullopt;
  if (!field->is_string()) {
    Fail(PathOf(name), "not a string");
    return std::nullopt;
  }
  const std::string& value = field->get_ref<const std::string&>();
  if (value.size() > length_max) {
    Fail(PathOf(name), "longer than " + std::to_string(length_max) + " bytes");
    return std::nullopt;
  }
  return value;
}

std::string FieldReader::String(std::string_view name, Presence presence, size_t length_max) {
  const bool was_ok = ok();
  std::optional<std::string> value = MaybeString(name, length_max);
  if (was_ok && ok() && presence == Presence::kRequired && (!value || value->empty())) {
    Fail(PathOf(name), "required, a non-empty string");
  }
  return value.value_or("");
}

const json& FieldReader::Array(std::string_view name, Presence presence, size_t items_max) {
  const bool was_ok = ok();
  const json* field = Find(name);
  if (field == nullptr) {
    if (was_ok && presence == Presence::kRequired) Fail(PathOf(name), "required, an array");
    return EmptyArray();
  }
  if (!field->is_array()) {
    Fail(PathOf(name), "not an array");
    return EmptyArray();
  }
  if (field->size() > items_max) {
    Fail(PathOf(name), "more than " + std::to_string(items_max) + " items");
    return EmptyArray();
  }
  return *field;
}

std::vector<std::string> FieldReader::Strings(std::string_view name, Presence presence,
                                              size_t items_max, size_t length_max) {
  const json& array = Array(name, presence, items_max);
  std::vector<std::string> out;
  for (size_t i = 0; i < array.size() && ok(); ++i) {
    const json& item = array[i];
    if (!item.is_string()) {
      Fail(ItemPath(PathOf(name), i), "not a string");
    } else if (item.get_ref<const std::string&>().size() > length_max) {
      Fail(ItemPath(PathOf(name), i), "longer than " + std::to_string(length_max) + " bytes");
    } else {
      out.push_back(item.get<std::string>());
    }
  }
  return ok() ? out : std::vector<std::string>{};
}

const json* FieldReader::MaybeObject(std::string_view name) {
  const json* field = Find(name);
  if (field == nullptr) return nullptr;
  if (!field->is_object()) {
    Fail(PathOf(name), "not an object");
    return nullptr;
  }
  return field;
}

}  // namespace skillnode::node::importers::documents
