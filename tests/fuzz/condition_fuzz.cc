// A question's condition (common/questions/conditions.h): the input is a JSON array
// [condition, answer]. Any condition object, leaf or group, is judged when a link is saved
// (INVALID_CONDITION or accepted), and any condition, accepted or not, is evaluated with every
// field (dotted or not) answered by the answer, or by none, without failing.
#include <boost/json/parse.hpp>
#include <set>

#include "common/core/errors.h"
#include "common/questions/conditions.h"
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
  static const std::vector<q::Question> kQuestions = [] {
    std::vector<q::Question> out;
    for (const char* type :
         {"number", "text", "multiple_choice", "yes_no", "matrix", "contact_info", "address",
          "date_range", "slider", "date", "time", "datetime", "hidden_field", "ranking"}) {
      q::Question question;
      question.field_key = std::string("q_") + type;
      question.response_type = type;
      if (question.response_type == "matrix") {
        question.configuration["rows"] = {{{"id", "r1"}, {"label", "R"}}};
      }
      if (question.response_type == "slider") question.configuration["range"] = true;
      out.push_back(std::move(question));
    }
    return out;
  }();
  q::QuestionsByKey earlier;
  for (const auto& question : kQuestions) earlier.emplace(question.field_key, &question);
  try {
    q::validateCondition(condition, "questions[1].condition", earlier);
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == feedback::ErrorCode::kInvalidCondition);
  }
  const bool shown = q::conditionHolds(condition, [&answer](std::string_view field) {
    const auto dot = field.find('.');
    return dot == std::string_view::npos ? &answer : q::answerPart(answer, field.substr(dot + 1));
  });
  const bool shown_unanswered =
      q::conditionHolds(condition, [](std::string_view) { return nullptr; });
  // No condition shows its question always.
  if (condition.empty()) FUZZ_CHECK(shown && shown_unanswered);
  return 0;
}
