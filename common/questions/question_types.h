#pragma once
// The question-type table (docs/api.md "Question types"): the one place that names the 13 types
// and holds every fact that depends on a type: the configuration keys each accepts, what
// values those keys take and their defaults, rules across keys, how the type is answered and
// what a valid answer is, whether answers get AI insights, what media they hold, the extra
// fields of their records and how a link's summary sums them up. Links validate
// configurations with it, responses validate answers and summarise with it. Every fact of a
// row is stated (none left unset: a test checks), so adding a type means adding a row.

#include <array>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace feedback::questions {

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
  kFormula,    // arithmetic over other questions' field keys (common/questions/formula.h)
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

// Who gives a question's answer.
enum class AnswerSource {
  kRespondent,  // the respondent's value, checked by the type's answer rule
  kComputed,    // computed by the server (calculated); never accepted from a respondent
  kNone,        // nothing to answer (help_block)
};

// The question as the rules need it: its configuration and condition parsed.
struct Question {
  std::string uuid;
  std::string field_key;
  std::string prompt;
  std::string response_type;
  boost::json::object configuration;
  boost::json::object condition;
  bool required = false;
  bool fallback_to_text = true;
  bool enable_dynamic_probing = false;
  boost::json::object evaluator_config;
};

// Reports a configuration problem: `key` is the configuration key at fault.
using ConfigProblem = void (*)(void* context, std::string_view key, const std::string& problem);
// A rule across a configuration's keys; calls `report` for the first problem found.
using ConfigCheck = void (*)(const boost::json::object& configuration, ConfigProblem report,
                             void* context);
// The problem with `value` (never JSON null) as an answer to `question`; nullopt when valid.
using AnswerRule = std::optional<std::string> (*)(const Question& question,
                                                  const boost::json::value& value);

// How a link's summary sums up a type's answers (link_summary.cc); the value is the kind
// letter of the answer's line in a response's summary facts (summary_facts.cc).
enum class SummaryKind : char {
  kUnset = 0,
  kNone = 'a',    // only counted as answered
  kRating = 'r',  // a distribution, and the average or the NPS
  kNumber = 'n',  // average, minimum, maximum
  kChoice = 'c',  // counts per option or card (the key named by `choices`)
  kYesNo = 'y',
  kText = 't',  // sentiment, top topics and actionable answers, from AI insights
};

// Whether answers get AI insights (and may be probed).
enum class Evaluation {
  kUnset,
  kNever,
  kAlways,
  kUnlessDisabled,  // unless the configuration says enable_ai_evaluation: false
};

// What respondents' media an answer may hold.
enum class AnswerMedia { kUnset, kNone, kRecording, kFile };

// The extra field an answer's record (and its events) carries beside its value.
enum class AnswerExtra { kUnset, kNone, kRatingDetails, kSelectedCard };

struct QuestionType {
  std::string_view name;
  std::initializer_list<ConfigKey> configuration;
  AnswerSource source = AnswerSource::kRespondent;
  AnswerRule answer = nullptr;       // null unless source is kRespondent
  ConfigCheck check_keys = nullptr;  // null when the keys are independent
  SummaryKind summary = SummaryKind::kUnset;
  // With SummaryKind::kChoice: the configuration key that lists the choices ("options", or
  // "cards", whose items' "id" is the choice).
  std::string_view choices = {};
  Evaluation evaluation = Evaluation::kUnset;
  AnswerMedia media = AnswerMedia::kUnset;
  AnswerExtra extra = AnswerExtra::kUnset;
};

inline constexpr std::string_view kDefaultQuestionType = "voice";
inline constexpr std::array<std::string_view, 4> kRatingScaleTypes = {"stars", "emojis", "nps",
                                                                      "numbers"};
inline constexpr std::array<std::string_view, 2> kCardMediaTypes = {"image", "video"};

const std::array<QuestionType, 13>& questionTypes();
// Null for a name outside the table.
const QuestionType* findQuestionType(std::string_view name);
// Facts of the type named `name`, read by code that holds only the name (an answer's
// response_type); for a name outside the table: kNone.
SummaryKind summaryKindOf(std::string_view name);
AnswerMedia mediaOf(std::string_view name);
AnswerExtra extraOf(std::string_view name);

// The configured value of `key`, or the table's default for it; nullptr when neither exists.
// `question.response_type` must be in the table.
const boost::json::value* setting(const Question& question, std::string_view key);

}  // namespace feedback::questions
