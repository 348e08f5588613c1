#include "services/responses/media/recognition_hints.h"

#include <algorithm>
#include <cctype>

#include "common/questions/evaluation_rules.h"

namespace feedback::responses {

std::string recognitionHints(const questions::Question& question) {
  std::string hints = question.prompt;
  std::string words;
  const auto append = [&words](std::string_view word) {
    if (word.empty()) return;
    if (!words.empty()) words += ", ";
    words += word;
  };
  const auto* type = questions::findQuestionType(question.response_type);
  if (type && !type->choices.empty()) {
    const auto* options = question.configuration.if_contains(type->choices);
    if (options && options->is_array()) {
      for (const auto& option : options->get_array()) {
        if (option.is_string()) append(option.get_string());
      }
    }
  }
  // Custom fields are keys ("delivery_time"): said as words.
  for (auto field : questions::evaluatorConfig(question).custom_fields) {
    std::replace(field.begin(), field.end(), '_', ' ');
    append(field);
  }
  if (words.empty()) return hints;
  words[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(words[0])));
  if (!hints.empty()) hints += ' ';
  hints += words;
  hints += '.';
  return hints;
}

}  // namespace feedback::responses
