#pragma once
// JSON values back to text. Boost.JSON writes doubles with an exponent ("1.5E0"); values we
// echo to clients are written the way people write them ("1.5"), in the shortest form that
// reads back as the same number.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace feedback {

std::string jsonText(const boost::json::value& value);

// True when `value` holds a number no JSON text can (Boost.JSON reads "1e400" as infinity):
// written back it would read as something else. Every parse of outside JSON refuses it.
bool holdsNonFinite(const boost::json::value& value);

// The text of `json` when it is a string literal without escapes (`"abc"` -> `abc`), read
// without a parse; nullopt for anything else (other values, escapes), which takes a parse.
// For JSON this process wrote: it does not check what a parser would refuse.
std::optional<std::string_view> unescapedJsonString(std::string_view json);
// The string `json` holds; nullopt when it holds another value or is no JSON. A string
// without escapes is read without a parse (unescapedJsonString).
std::optional<std::string> jsonStringValue(std::string_view json);

}  // namespace feedback
