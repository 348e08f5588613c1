#pragma once
// The value rules of each answerable question type (docs/api.md "Question types"), the checks
// of media answers, and what an answer shows beside its value (rating_details, selected_card).
// The question-type table (question_types.h) points at these rules; callers normally go
// through it (FormRules) rather than calling them by type.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/questions/question_types.h"

namespace feedback::questions {

// Each returns the problem with `value` as an answer to `question`, or nullopt when valid.
std::optional<std::string> textAnswerProblem(const Question& question,
                                             const boost::json::value& value);
std::optional<std::string> voiceAnswerProblem(const Question& question,
                                              const boost::json::value& value);
std::optional<std::string> voiceTextAnswerProblem(const Question& question,
                                                  const boost::json::value& value);
std::optional<std::string> choiceAnswerProblem(const Question& question,
                                               const boost::json::value& value);
std::optional<std::string> numberAnswerProblem(const Question& question,
                                               const boost::json::value& value);
std::optional<std::string> ratingAnswerProblem(const Question& question,
                                               const boost::json::value& value);
std::optional<std::string> cardAnswerProblem(const Question& question,
                                             const boost::json::value& value);
std::optional<std::string> emailAnswerProblem(const Question& question,
                                              const boost::json::value& value);
std::optional<std::string> dateAnswerProblem(const Question& question,
                                             const boost::json::value& value);
std::optional<std::string> yesNoAnswerProblem(const Question& question,
                                              const boost::json::value& value);
// A stored file: {"file_name", "content_type", "size_bytes", "url"}, of an allowed type and
// within max_size_mb (at most kMaxFileUploadMiB).
std::optional<std::string> fileAnswerProblem(const Question& question,
                                             const boost::json::value& value);

// The largest file a file_upload question takes: its max_size_mb, at most kMaxFileUploadMiB.
int64_t maxFileBytes(const Question& question);
// That limit as people read it, e.g. "5 MB".
std::string fileLimitText(const Question& question);
// A recorded answer's length in seconds against the question's max_duration (voice types).
std::optional<std::string> durationProblem(const Question& question, double seconds);
// True when `content_type` ("type/subtype", parameters ignored) is one of the question's
// allowed_types ("image/*" matches every image type); every type is allowed when none is set.
bool isAllowedFileType(const Question& question, std::string_view content_type);

// A plausible mailbox address: local@domain with a dotted domain, no spaces, at most 254.
bool isEmailAddress(std::string_view text);
// A real calendar day written YYYY-MM-DD.
bool isCalendarDate(std::string_view text);
// Characters of UTF-8 text (code points), for length limits stated in characters.
std::size_t characterCount(std::string_view utf8);

// The number an answer stands for in formulas and conditions: JSON numbers only.
std::optional<double> numericValue(const boost::json::value& value);

struct RatingDetails {
  int64_t value = 0;
  int64_t max_value = 0;
  std::string scale_type;
};
// rating_details of a valid rating answer (docs/api.md "Question types"): nps scales are 0..10.
RatingDetails ratingDetails(const Question& question, const boost::json::value& value);
// The lowest value of a rating scale: 0 on nps scales, else 1 (the highest is max_value).
int64_t ratingMinimum(const RatingDetails& scale);

struct SelectedCard {
  std::string card_id;
  std::string label;
  std::string media_url;
  std::string media_type;
};
// selected_card of a valid image_choice answer; nullopt when the card is not configured.
std::optional<SelectedCard> selectedCard(const Question& question, const boost::json::value& value);

}  // namespace feedback::questions
