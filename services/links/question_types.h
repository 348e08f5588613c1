#pragma once
// The question-type table (SPEC.md "Question types"): the one place that names the 13 types,
// the configuration keys each accepts, what values those keys take and their defaults. Used
// by validation here and by the intake when it applies defaults.

#include <array>
#include <initializer_list>
#include <string_view>

namespace feedback::links {

enum class ConfigValue {
  kInteger,         // a whole number within [min, max]
  kNumber,          // any finite number
  kPositiveNumber,  // a number > 0, at most max when max > 0
  kBoolean,
  kText,       // a string of at most max characters
  kUrl,        // an absolute http(s) URL
  kOptions,    // a non-empty list of distinct non-empty strings
  kScaleType,  // stars | emojis | nps | numbers
  kCards,      // a non-empty list of {id, label, media_url, media_type}
  kMimeTypes,  // a list of "type/subtype" strings ("image/*" allowed)
  kFormula,    // arithmetic over other questions' field keys (common/formula.h)
};

struct ConfigKey {
  std::string_view name;
  ConfigValue value;
  bool required = false;
  double min = 0;
  double max = 0;
  // JSON of the value used when the key is absent; empty when there is none.
  std::string_view default_json = {};
};

struct QuestionType {
  std::string_view name;
  std::initializer_list<ConfigKey> configuration;
};

inline constexpr std::string_view kDefaultQuestionType = "voice";
inline constexpr std::array<std::string_view, 4> kRatingScaleTypes = {"stars", "emojis", "nps",
                                                                      "numbers"};
inline constexpr std::array<std::string_view, 2> kCardMediaTypes = {"image", "video"};

inline const std::array<QuestionType, 13>& questionTypes() {
  using V = ConfigValue;
  static const std::array<QuestionType, 13> table = {{
      {"voice",
       {{"max_duration", V::kInteger, false, 1, 3600}, {"enable_ai_evaluation", V::kBoolean}}},
      {"voice_text_fallback",
       {{"max_duration", V::kInteger, false, 1, 3600},
        {"max_characters", V::kInteger, false, 1, 100000}}},
      {"text", {}},
      {"multiple_choice",
       {{"options", V::kOptions, true, 1, 100},
        {"allow_multiple", V::kBoolean, false, 0, 0, "false"}}},
      {"number", {{"min", V::kNumber}, {"max", V::kNumber}, {"step", V::kPositiveNumber}}},
      {"rating",
       {{"scale_type", V::kScaleType, false, 0, 0, "\"stars\""},
        {"max_value", V::kInteger, false, 2, 10, "5"}}},
      {"image_choice", {{"cards", V::kCards, true, 1, 50}}},
      {"email", {}},
      {"date", {}},
      {"yes_no", {}},
      {"file_upload",
       {{"allowed_types", V::kMimeTypes, false, 0, 50},
        {"max_size_mb", V::kPositiveNumber, false, 0, 100}}},
      {"calculated", {{"formula", V::kFormula, true}}},
      {"help_block", {{"content", V::kText, false, 0, 10000}, {"media_url", V::kUrl}}},
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
