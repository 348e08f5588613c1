// Request bodies (services/gateway/http/json_input.h): any bytes are one JSON object within
// the contract's limits, or INVALID_JSON / VALIDATION_ERROR; an accepted body's values read
// through JsonFields as their type or VALIDATION_ERROR; and what the API stores and echoes of
// it (jsonText) reads back as the same value.
#include <boost/json/parse.hpp>
#include <cmath>
#include <limits>

#include "common/core/errors.h"
#include "common/core/json_text.h"
#include "services/gateway/http/json_input.h"
#include "tests/fuzz/fuzz_check.h"

namespace gw = feedback::gateway;
using feedback::ErrorCode;

namespace {

std::size_t depthOf(const boost::json::value& v) {
  std::size_t deepest = 0;
  if (v.is_object()) {
    for (const auto& [_, item] : v.get_object()) deepest = std::max(deepest, depthOf(item));
    return deepest + 1;
  }
  if (v.is_array()) {
    for (const auto& item : v.get_array()) deepest = std::max(deepest, depthOf(item));
    return deepest + 1;
  }
  return 0;
}

// Every accessor on `key`, as routes read it: the value or the contract's error.
void readAs(const boost::json::object& body, std::string_view key) {
  const boost::json::object one = {{key, body.at(key)}};
  const gw::JsonFields fields(one, "questions[0]", {key});
  // Each accessor gives the value of its type or refuses it with the contract's error.
  const auto read = [](const auto& accessor) {
    try {
      accessor();
    } catch (const feedback::ApiError& e) {
      FUZZ_CHECK(e.code() == ErrorCode::kValidationError ||
                 e.code() == ErrorCode::kInvalidConfiguration);
    }
  };
  read([&] { fields.text(key); });
  read([&] { fields.boolean(key); });
  read([&] { fields.integer(key); });
  read([&] { fields.object(key, ErrorCode::kInvalidConfiguration); });
  read([&] { fields.array(key); });
}

// JSON equality as a reader sees it: numbers by value, whatever their C++ type ("1.0" is
// written "1", which reads back as an integer), within the last bit or two of a double:
// Boost.JSON 1.81 does not always round a long decimal to the nearest double, so the same
// number written two ways may read back one unit in the last place apart.
bool sameValue(const boost::json::value& a, const boost::json::value& b) {
  if (a.is_number() && b.is_number()) {
    if (!a.is_double() && !b.is_double()) return a == b;
    const double x = a.to_number<double>(), y = b.to_number<double>();
    return x == y || std::abs(x - y) <= 4 * std::numeric_limits<double>::epsilon() *
                                            std::max(std::abs(x), std::abs(y));
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_object()) {
    const auto& x = a.get_object();
    const auto& y = b.get_object();
    if (x.size() != y.size()) return false;
    for (const auto& [key, item] : x) {
      const auto* other = y.if_contains(key);
      if (!other || !sameValue(item, *other)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    const auto& x = a.get_array();
    const auto& y = b.get_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!sameValue(x[i], y[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  boost::json::object body;
  try {
    body = gw::parseJsonObject(feedback::fuzz::asText(data, size));
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == ErrorCode::kInvalidJson || e.code() == ErrorCode::kValidationError);
    return 0;
  }
  FUZZ_CHECK(depthOf(body) <= gw::kMaxJsonDepth);
  // A body that may have no key refuses every key it has.
  try {
    gw::JsonFields(body, "", {});
    FUZZ_CHECK(body.empty());
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == ErrorCode::kValidationError && !body.empty());
  }
  for (const auto& entry : body) readAs(body, entry.key());

  // Stored and echoed as jsonText: the same value when read again.
  const std::string text = feedback::jsonText(body);
  boost::system::error_code ec;
  auto again = boost::json::parse(text, ec);
  FUZZ_CHECK(!ec);
  FUZZ_CHECK(sameValue(again, body));
  return 0;
}
