#include "services/gateway/http/json_input.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cmath>

#include "common/core/errors.h"
#include "common/core/json_text.h"
#include "common/core/text.h"

namespace feedback::gateway {

boost::json::object parseJsonObject(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return {};
  boost::json::parse_options options;
  options.max_depth = kMaxJsonDepth;
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(body, ec, {}, options);
  if (ec) {
    throw ApiError(ErrorCode::kInvalidJson, "The body is not valid JSON: " + ec.message() + ".");
  }
  if (holdsNonFinite(value)) {
    throw ApiError(ErrorCode::kInvalidJson, "The body holds a number too large to represent.");
  }
  if (!value.is_object()) {
    throw ApiError(ErrorCode::kValidationError, "The body must be a JSON object.");
  }
  return std::move(value.as_object());
}

JsonFields::JsonFields(const boost::json::object& object, std::string path,
                       std::initializer_list<std::string_view> allowed)
    : object_(object), path_(std::move(path)) {
  ErrorDetails unknown;
  for (const auto& entry : object_) {
    bool known = false;
    for (auto a : allowed) known = known || entry.key() == a;
    if (!known) unknown[pathOf(entry.key())] = "unknown field";
  }
  if (!unknown.empty()) {
    std::string message = "Unknown field '" + unknown.begin()->first + "'.";
    throw ApiError(ErrorCode::kValidationError, std::move(message), std::move(unknown));
  }
}

std::string JsonFields::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const boost::json::value* JsonFields::find(std::string_view key) const {
  const boost::json::value* v = object_.if_contains(key);
  return (v && !v->is_null()) ? v : nullptr;
}

bool JsonFields::has(std::string_view key) const {
  return find(key) != nullptr;
}

void JsonFields::wrongType(std::string_view key, std::string_view expected, ErrorCode code) const {
  std::string path = pathOf(key);
  throw ApiError(code, "'" + path + "' must be " + std::string(expected) + ".",
                 {{path, "must be " + std::string(expected)}});
}

std::optional<std::string> JsonFields::text(std::string_view key, ErrorCode code) const {
  const auto* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrongType(key, "a string");
  requireStorableText(v->as_string(), pathOf(key), code);
  return std::string(v->as_string());
}

std::optional<bool> JsonFields::boolean(std::string_view key) const {
  const auto* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_bool()) wrongType(key, "a boolean");
  return v->as_bool();
}

std::optional<int64_t> JsonFields::integer(std::string_view key) const {
  const auto* v = find(key);
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64() && v->as_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
    return static_cast<int64_t>(v->as_uint64());
  }
  if (v->is_double()) {
    double d = v->as_double();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9e15) {
      return static_cast<int64_t>(d);
    }
  }
  wrongType(key, "an integer");
}

const boost::json::object* JsonFields::object(std::string_view key) const {
  return object(key, ErrorCode::kValidationError);
}

const boost::json::object* JsonFields::object(std::string_view key, ErrorCode code) const {
  const auto* v = find(key);
  if (!v) return nullptr;
  if (!v->is_object()) wrongType(key, "an object", code);
  return &v->as_object();
}

const boost::json::array* JsonFields::array(std::string_view key) const {
  const auto* v = find(key);
  if (!v) return nullptr;
  if (!v->is_array()) wrongType(key, "an array");
  return &v->as_array();
}

}  // namespace feedback::gateway
