#pragma once
// Reading request bodies: parsing under the contract's limits, and typed access to the keys
// of a JSON object that rejects unknown keys (VALIDATION_ERROR, as Stripe does).

#include <boost/json/value.hpp>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "common/core/errors.h"

namespace feedback::gateway {

inline constexpr std::size_t kMaxJsonDepth = 32;

// INVALID_JSON unless `body` is one valid UTF-8 JSON value nested at most 32 deep;
// VALIDATION_ERROR unless that value is an object. An empty body is an empty object.
boost::json::object parseJsonObject(std::string_view body);

class JsonFields {
 public:
  // VALIDATION_ERROR when `object` has a key outside `allowed`. `path` prefixes field names
  // in error details, e.g. "questions[2]".
  JsonFields(const boost::json::object& object, std::string path,
             std::initializer_list<std::string_view> allowed);

  // Each accessor: nullopt/nullptr when absent or null, VALIDATION_ERROR on a wrong type.
  // Text holding U+0000 is refused (it cannot be stored) with `code`: a field with an error code
  // of its own (INVALID_SLUG, ...) gives it, which takes precedence over VALIDATION_ERROR.
  std::optional<std::string> text(std::string_view key,
                                  ErrorCode code = ErrorCode::kValidationError) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<int64_t> integer(std::string_view key) const;
  const boost::json::object* object(std::string_view key) const;
  // As object(), with `code` instead of VALIDATION_ERROR when the value is not an object.
  const boost::json::object* object(std::string_view key, ErrorCode code) const;
  const boost::json::array* array(std::string_view key) const;
  // True when the key is present with a non-null value.
  bool has(std::string_view key) const;
  std::string pathOf(std::string_view key) const;

 private:
  const boost::json::value* find(std::string_view key) const;
  [[noreturn]] void wrongType(std::string_view key, std::string_view expected,
                              ErrorCode code = ErrorCode::kValidationError) const;

  const boost::json::object& object_;
  std::string path_;
};

}  // namespace feedback::gateway
