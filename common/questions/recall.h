#pragma once
// Recall (docs/api.md "Logic and recall"): a prompt, the link's description or a help_block's
// content may hold {{field_key}} or {{field_key.part}}, naming an earlier question; the page
// and the stored question_text show the respondent's answer there as text.

#include <boost/json/value.hpp>
#include <functional>
#include <string>
#include <string_view>

#include "common/questions/conditions.h"

namespace feedback::questions {

// VALIDATION_ERROR with details {path: problem} when a placeholder of `text` names no question
// of `allowed`, an unknown part, or a whole object answer (those read only through a part).
void validateRecall(std::string_view text, const std::string& path, const QuestionsByKey& allowed);

// An answer as recall shows it: strings as they are, numbers in their shortest form, lists
// joined with ", ", booleans "yes"/"no"; objects show nothing (only their parts).
std::string recallText(const boost::json::value& value);

// `text` with each placeholder replaced by its answer's text (empty when `answer` gives null).
std::string withRecall(std::string_view text, const FieldAnswer& answer);

}  // namespace feedback::questions
