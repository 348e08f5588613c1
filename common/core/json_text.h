#pragma once
// JSON values back to text. Boost.JSON writes doubles with an exponent ("1.5E0"); values we
// echo to clients are written the way people write them ("1.5"), in the shortest form that
// reads back as the same number.

#include <boost/json/value.hpp>
#include <string>

namespace feedback {

std::string jsonText(const boost::json::value& value);

// True when `value` holds a number no JSON text can (Boost.JSON reads "1e400" as infinity):
// written back it would read as something else. Every parse of outside JSON refuses it.
bool holdsNonFinite(const boost::json::value& value);

}  // namespace feedback
