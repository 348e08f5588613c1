#pragma once
// The answer rules of the scales (docs/api.md "Question types"): rating, nps, opinion_scale,
// csat and ces are whole numbers on a scale their row states; slider is a number, or a range
// of two, on a stepped line.

#include <boost/json/value.hpp>
#include <optional>
#include <string>

#include "common/questions/question_types.h"

namespace feedback::questions {

// The scales (QuestionType::scale).
RatingScale ratingScale(const Question& question);   // scale_type and max_value; nps is 0..10
RatingScale npsScale(const Question& question);      // 0..10
RatingScale opinionScale(const Question& question);  // 1..steps, or 0..steps-1
RatingScale csatScale(const Question& question);     // 1..5
RatingScale cesScale(const Question& question);      // 1..7
// The scale of a question whose type has one (a 1..5 scale otherwise).
RatingScale scaleOf(const Question& question);

// A whole number on the question's scale.
std::optional<std::string> scaleAnswerProblem(const Question& question, boost::json::value& value);
// A number within min..max on a step from min; [low, high] with low <= high when `range`.
std::optional<std::string> sliderAnswerProblem(const Question& question, boost::json::value& value);
// The slider's rule across keys: min below max, the span between them a finite number.
void checkSliderRange(const Question& question, ConfigProblem report, void* context);

struct RatingDetails {
  int64_t value = 0;
  int64_t max_value = 0;
  std::string scale_type;
};
// rating_details of a valid answer to a type with AnswerExtra::kRatingDetails.
RatingDetails ratingDetails(const Question& question, const boost::json::value& value);

// A whole number given as a JSON integer or an integral double; nullopt otherwise.
std::optional<int64_t> wholeNumber(const boost::json::value& value);

}  // namespace feedback::questions
