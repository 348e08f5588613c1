// A question's condition (common/questions/configuration_rules.h, form_rules.h): the input is
// a JSON array [condition, answer]. Any condition object is judged when a link is saved
// (INVALID_CONDITION or accepted), and any condition, accepted or not, is evaluated against
// any answer, or against none, without failing.
#include <boost/json/parse.hpp>
#include <set>

#include "common/core/errors.h"
#include "common/questions/configuration_rules.h"
#include "common/questions/form_rules.h"
#include "tests/fuzz/fuzz_check.h"

namespace q = feedback::questions;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  boost::system::error_code ec;
  auto input = boost::json::parse(feedback::fuzz::asText(data, size), ec);
  if (ec || !input.is_array() || input.as_array().size() != 2 || !input.as_array()[0].is_object()) {
    return 0;
  }
  const auto& condition = input.as_array()[0].as_object();
  const auto& answer = input.as_array()[1];
  static const std::set<std::string> kEarlier = {"score", "name", "tags", "agree"};
  try {
    q::validateCondition(condition, "questions[1].condition", kEarlier);
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == feedback::ErrorCode::kInvalidCondition);
  }
  const bool shown = q::conditionHolds(condition, &answer);
  const bool shown_unanswered = q::conditionHolds(condition, nullptr);
  // No condition shows its question always.
  if (condition.empty()) FUZZ_CHECK(shown && shown_unanswered);
  return 0;
}
