#pragma once
// What a recording of an answer is likely to say, from its question: the prompt, the options
// of a question that has them, and the custom fields its insights look for. A speech server
// takes it as its prompt; it is never a list of the only words allowed.

#include <string>

#include "common/questions/question_types.h"

namespace feedback::responses {

// "The prompt? Option one, option two, custom field." (parts the question lacks left out).
std::string recognitionHints(const questions::Question& question);

}  // namespace feedback::responses
