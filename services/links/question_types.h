#pragma once
// The question-type table (SPEC.md "Question types"): the one place that names the 13 types
// and the configuration keys each accepts.

#include <array>
#include <initializer_list>
#include <string_view>

namespace feedback::links {

struct QuestionType {
  std::string_view name;
  std::initializer_list<std::string_view> configuration_keys;
};

inline constexpr std::string_view kDefaultQuestionType = "voice";

inline const std::array<QuestionType, 13>& questionTypes() {
  static const std::array<QuestionType, 13> table = {{
      {"voice", {"max_duration", "enable_ai_evaluation"}},
      {"voice_text_fallback", {"max_duration", "max_characters"}},
      {"text", {}},
      {"multiple_choice", {"options", "allow_multiple"}},
      {"number", {"min", "max", "step"}},
      {"rating", {"scale_type", "max_value"}},
      {"image_choice", {"cards"}},
      {"email", {}},
      {"date", {}},
      {"yes_no", {}},
      {"file_upload", {"allowed_types", "max_size_mb"}},
      {"calculated", {"formula"}},
      {"help_block", {"content", "media_url"}},
  }};
  return table;
}

inline const QuestionType* findQuestionType(std::string_view name) {
  for (const auto& t : questionTypes()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace feedback::links
