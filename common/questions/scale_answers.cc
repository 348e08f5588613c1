#include "common/questions/scale_answers.h"

#include <cmath>
#include <limits>

#include "common/questions/answer_rules.h"

namespace feedback::questions {
namespace {

// The problem with `n` as a point of the slider's line.
std::optional<std::string> sliderPointProblem(const Question& question, double n) {
  const double min = settingNumber(question, "min").value_or(0);
  const double max = settingNumber(question, "max").value_or(100);
  if (n < min || n > max) {
    return "must be from " + numberText(min) + " to " + numberText(max);
  }
  if (!onStep(n, min, settingNumber(question, "step").value_or(1))) {
    return "must be on a step of " + numberText(settingNumber(question, "step").value_or(1)) +
           " from " + numberText(min);
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> wholeNumber(const boost::json::value& value) {
  if (value.is_int64()) return value.as_int64();
  if (value.is_uint64() && value.as_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
    return static_cast<int64_t>(value.as_uint64());
  }
  if (value.is_double()) {
    double d = value.as_double();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9e15) {
      return static_cast<int64_t>(d);
    }
  }
  return std::nullopt;
}

RatingScale ratingScale(const Question& question) {
  const boost::json::value* type = setting(question, "scale_type");
  std::string_view scale_type = "stars";
  // The names live in the table; the view must outlive the question.
  for (auto known : kRatingScaleTypes) {
    if (type && type->is_string() && type->as_string() == known) scale_type = known;
  }
  if (scale_type == "nps") return {0, 10, scale_type};
  const boost::json::value* max = setting(question, "max_value");
  return {1, (max ? wholeNumber(*max) : std::nullopt).value_or(5), scale_type};
}

RatingScale npsScale(const Question&) {
  return {0, 10, "nps"};
}

RatingScale opinionScale(const Question& question) {
  const int64_t steps = wholeNumber(*setting(question, "steps")).value_or(5);
  const int64_t first = settingFlag(question, "start_at_one") ? 1 : 0;
  return {first, first + steps - 1, "opinion_scale"};
}

RatingScale csatScale(const Question&) {
  return {1, 5, "csat"};
}

RatingScale cesScale(const Question&) {
  return {1, 7, "ces"};
}

RatingScale scaleOf(const Question& question) {
  const QuestionType* type = findQuestionType(question.response_type);
  return type && type->scale ? type->scale(question) : RatingScale{1, 5, "stars"};
}

std::optional<std::string> scaleAnswerProblem(const Question& question, boost::json::value& value) {
  const RatingScale scale = scaleOf(question);
  auto n = wholeNumber(value);
  if (!n || *n < scale.min || *n > scale.max) {
    return "must be a whole number from " + std::to_string(scale.min) + " to " +
           std::to_string(scale.max);
  }
  return std::nullopt;
}

std::optional<std::string> sliderAnswerProblem(const Question& question,
                                               boost::json::value& value) {
  if (!settingFlag(question, "range")) {
    auto n = numericValue(value);
    if (!n) return "must be a number";
    return sliderPointProblem(question, *n);
  }
  if (!value.is_array() || value.as_array().size() != 2) return "must be a range [low, high]";
  auto low = numericValue(value.as_array()[0]), high = numericValue(value.as_array()[1]);
  if (!low || !high) return "must be a range of two numbers [low, high]";
  if (auto problem = sliderPointProblem(question, *low)) return "low " + *problem;
  if (auto problem = sliderPointProblem(question, *high)) return "high " + *problem;
  if (*low > *high) return "must not have its low above its high";
  return std::nullopt;
}

void checkSliderRange(const Question& question, ConfigProblem report, void* context) {
  const double min = settingNumber(question, "min").value_or(0);
  const double max = settingNumber(question, "max").value_or(100);
  const char* key = question.configuration.contains("min") ? "min" : "max";
  if (min >= max) return report(context, key, "must leave min below max");
  // The steps are counted from min: a line longer than any double is not counted on.
  if (!std::isfinite(max - min)) report(context, key, "must span less than 1e308");
}

RatingDetails ratingDetails(const Question& question, const boost::json::value& value) {
  const RatingScale scale = scaleOf(question);
  return {wholeNumber(value).value_or(0), scale.max, std::string(scale.scale_type)};
}

}  // namespace feedback::questions
