#include "common/core/json_text.h"

#include <boost/json/parse.hpp>
#include <cmath>

#include "common/core/json_writer.h"

namespace feedback {
namespace {

void write(JsonWriter& json, const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      json.null();
      return;
    case boost::json::kind::bool_:
      json.boolean(v.get_bool());
      return;
    case boost::json::kind::int64:
      json.integer(v.get_int64());
      return;
    case boost::json::kind::uint64:
      json.raw(std::to_string(v.get_uint64()));
      return;
    case boost::json::kind::double_:
      json.number(v.get_double());
      return;
    case boost::json::kind::string:
      json.string(v.get_string());
      return;
    case boost::json::kind::array:
      json.beginArray();
      for (const auto& item : v.get_array()) write(json, item);
      json.endArray();
      return;
    case boost::json::kind::object:
      json.beginObject();
      for (const auto& [key, item] : v.get_object()) {
        json.key(key);
        write(json, item);
      }
      json.endObject();
      return;
  }
}

}  // namespace

bool holdsNonFinite(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::double_:
      return !std::isfinite(value.get_double());
    case boost::json::kind::array:
      for (const auto& item : value.get_array()) {
        if (holdsNonFinite(item)) return true;
      }
      return false;
    case boost::json::kind::object:
      for (const auto& [_, item] : value.get_object()) {
        if (holdsNonFinite(item)) return true;
      }
      return false;
    default:
      return false;
  }
}

std::string jsonText(const boost::json::value& value) {
  std::string out;
  JsonWriter json(out);
  write(json, value);
  return out;
}

std::optional<std::string_view> unescapedJsonString(std::string_view json) {
  if (json.size() < 2 || json.front() != '"' || json.back() != '"') return std::nullopt;
  const std::string_view text = json.substr(1, json.size() - 2);
  if (text.find_first_of("\\\"") != std::string_view::npos) return std::nullopt;
  return text;
}

std::optional<std::string> jsonStringValue(std::string_view json) {
  if (auto text = unescapedJsonString(json)) return std::string(*text);
  // Only a string literal can hold a string.
  if (json.empty() || json.front() != '"') return std::nullopt;
  boost::system::error_code ec;
  auto value = boost::json::parse(json, ec);
  if (ec || !value.is_string()) return std::nullopt;
  return std::string(value.get_string());
}

}  // namespace feedback
