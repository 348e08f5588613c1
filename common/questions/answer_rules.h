#pragma once
// The value rules of each answerable question type (docs/api.md "Question types"), the checks
// of media answers, and what an answer shows beside its value (rating_details, selected_card).
// The question-type table (question_types.h) points at these rules; callers normally go
// through it (FormRules) rather than calling them by type. Scales are in scale_answers.h,
// object and list answers in object_answers.h.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/questions/calendar.h"
#include "common/questions/object_answers.h"
#include "common/questions/question_types.h"
#include "common/questions/scale_answers.h"

namespace feedback::questions {

// Each returns the problem with `value` as an answer to `question`, or nullopt when valid.
std::optional<std::string> textAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> voiceAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> voiceTextAnswerProblem(const Question& question,
                                                  boost::json::value& value);
std::optional<std::string> choiceAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> numberAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> cardAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> emailAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> dateAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> yesNoAnswerProblem(const Question& question, boost::json::value& value);
// A stored file: {"file_name", "content_type", "size_bytes", "url"}, of an allowed type and
// within the question's limit (file_upload and signature).
std::optional<std::string> fileAnswerProblem(const Question& question, boost::json::value& value);

// The types of docs/api.md "Question types" beyond the 13.
std::optional<std::string> longTextAnswerProblem(const Question& question,
                                                 boost::json::value& value);
// Stored in E.164.
std::optional<std::string> phoneAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> urlAnswerProblem(const Question& question, boost::json::value& value);
std::optional<std::string> timeAnswerProblem(const Question& question, boost::json::value& value);
// Stored in UTC with microseconds.
std::optional<std::string> datetimeAnswerProblem(const Question& question,
                                                 boost::json::value& value);
std::optional<std::string> hiddenFieldAnswerProblem(const Question& question,
                                                    boost::json::value& value);

// What a drawing (a signature) is uploaded as.
inline constexpr std::string_view kDrawingContentType = "image/png";

// The longest hidden_field value and the longest part of a contact_info or address answer.
inline constexpr std::size_t kMaxHiddenValueCharacters = 1000;
inline constexpr std::size_t kMaxPartCharacters = 500;

// The largest file a question takes: a file_upload's max_size_mb (at most kMaxFileUploadMiB),
// a signature's max_size_kb.
int64_t maxFileBytes(const Question& question);
// That limit as people read it, e.g. "5 MB".
std::string fileLimitText(const Question& question);
// The largest recording a question takes: a WAV's limit, or for Opus (`compressed`) its
// max_duration (an hour when unset) at 64 kbit/s within limits.h's bounds.
int64_t maxRecordingBytes(const Question& question, bool compressed);
// A recorded answer's length in seconds against the question's max_duration (voice types).
std::optional<std::string> durationProblem(const Question& question, double seconds);
// True when `content_type` ("type/subtype", parameters ignored) is one of the question's
// allowed_types ("image/*" matches every image type); every type is allowed when none is set.
// A signature takes image/png only.
bool isAllowedFileType(const Question& question, std::string_view content_type);

// A plausible mailbox address: local@domain with a dotted domain, no spaces, at most 254.
bool isEmailAddress(std::string_view text);
// Characters of UTF-8 text (code points), for length limits stated in characters.
std::size_t characterCount(std::string_view utf8);

// A number in its shortest form: 7, 0.1, 1500000000.5.
std::string numberText(double n);
// Whether `n` lies a whole number of `step`s from `from` (up to binary rounding).
bool onStep(double n, double from, double step);

struct SelectedCard {
  std::string card_id;
  std::string label;
  std::string media_url;
  std::string media_type;
};
// selected_card of a valid image_choice answer; nullopt when the card is not configured.
std::optional<SelectedCard> selectedCard(const Question& question, const boost::json::value& value);

}  // namespace feedback::questions
