#pragma once
// The question-type table (docs/api.md "Question types"): the one place that names the 32 types
// and holds every fact that depends on a type: the configuration keys each accepts, what
// values those keys take and their defaults, rules across keys, the parts of object answers,
// how the type is answered and what a valid answer is (and its stored form), whether it is
// displayed, whether answers get AI insights, what media they hold, the extra fields of their
// records, how a link's summary sums them up and how a value reads as text. Links validate
// configurations with it, responses validate answers and summarise with it. Every fact of a
// row is stated (none left unset: a test checks), so adding a type means adding a row.

#include <array>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <functional>
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
  kText,         // a string of min (at least 0) to max characters
  kTextList,     // a list of min to max strings (csat's labels)
  kUrl,          // an absolute http(s) URL
  kHttpsUrl,     // an absolute https URL
  kOptions,      // a list of min (at least 1) to max distinct non-empty strings
  kScaleType,    // stars | emojis | nps | numbers
  kCards,        // a non-empty list of {id, label, media_url, media_type}
  kMimeTypes,    // a list of "type/subtype" strings ("image/*" allowed)
  kFormula,      // arithmetic over other questions' field keys (common/questions/formula.h)
  kCountry,      // an ISO 3166-1 alpha-2 code (common/questions/phone_numbers.h)
  kTime,         // HH:MM, 24 hours
  kDate,         // YYYY-MM-DD
  kScaleLabels,  // {left, center, right}, each an optional string
  kIdLabels,     // a list of min to max {id, label}, ids unique and ^[a-z0-9_]{1,64}$
  kParts,        // {part: {show?, required?}} over the type's parts
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

// What a part of an object answer (contact_info, address) holds.
enum class PartValue { kText, kEmail, kPhone, kCountry };

// A part of an object answer whose configuration's `fields` says which parts are shown and
// required.
struct AnswerPart {
  std::string_view name;
  PartValue value = PartValue::kText;
  bool required = false;  // when the configuration says nothing of it
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

// What an answer's value is. Conditions and recall may name parts of kParts (the row's
// parts), kMatrix (row ids), kDateRange (start, end) and kSlider (low, high of a range).
enum class AnswerShape {
  kUnset,
  kNone,       // no value (help_block)
  kText,       // a string
  kNumber,     // a number
  kBoolean,    // true or false
  kChoice,     // a string, or a list of strings when several may be chosen
  kList,       // a list of strings
  kSlider,     // a number, or [low, high]
  kMatrix,     // {row id: column id or [column ids]}
  kParts,      // {part: string}
  kDateRange,  // {start, end}
  kFile,       // {file_name, content_type, size_bytes, url}
};

// How a text answer is written, where it follows a format: what conditions compare it as
// and what the OpenAPI document says of it.
enum class ValueFormat { kPlain, kEmail, kUrl, kPhone, kDate, kTime, kInstant };

// Whether the page shows the question.
enum class Display { kUnset, kShown, kNever };

// Reports a configuration problem: `key` is the configuration key at fault.
using ConfigProblem = void (*)(void* context, std::string_view key, const std::string& problem);
// A rule across a configuration's keys (read with setting(), so defaults count); calls
// `report` for the first problem found. The keys themselves are valid.
using ConfigCheck = void (*)(const Question& question, ConfigProblem report, void* context);
// The problem with `value` (never JSON null) as an answer to `question`; nullopt when valid.
// A valid value is rewritten into its stored form (E.164 phone numbers, upper-case country
// codes, UTC datetimes); most values are stored as given.
using AnswerRule = std::optional<std::string> (*)(const Question& question,
                                                  boost::json::value& value);

// The scale of an integer-rated type: its lowest and highest value and the scale_type its
// rating_details and summary name ("nps" is summed up as NPS, "csat" also as a CSAT share).
struct RatingScale {
  int64_t min = 1;
  int64_t max = 5;
  std::string_view scale_type;
};
using ScaleOf = RatingScale (*)(const Question& question);

// How a link's summary sums up a type's answers (link_summary.cc); the value is the kind
// letter of the answer's line in a response's summary facts (summary_facts.cc).
enum class SummaryKind : char {
  kUnset = 0,
  kNone = 'a',    // only counted as answered
  kRating = 'r',  // a distribution, and the average or the NPS
  kNumber = 'n',  // average, minimum, maximum
  kChoice = 'c',  // counts per option or card (the key named by `choices`)
  kYesNo = 'y',
  kText = 't',     // sentiment, top topics and actionable answers, from AI insights
  kSlider = 's',   // min, max, mean and median (of low and high for a range)
  kRanking = 'k',  // average rank and first places per option
  kMatrix = 'm',   // counts per row and column
  kConsent = 'x',  // how many accepted
  kValues = 'v',   // counts of the most frequent values
};

// How a value reads as text (search; exports later): kStrings takes strings and lists of
// strings, kParts the strings of an object's parts, kNone nothing (numbers, files).
enum class TextForm { kUnset, kNone, kStrings, kParts };

// Whether answers get AI insights (and may be probed).
enum class Evaluation {
  kUnset,
  kNever,
  kAlways,
  kUnlessDisabled,  // unless the configuration says enable_ai_evaluation: false
};

// What respondents' media an answer may hold: a recording, a file, or a drawing (a signature:
// a PNG uploaded through the files route like a file).
enum class AnswerMedia { kUnset, kNone, kRecording, kFile, kDrawing };

// The extra field an answer's record (and its events) carries beside its value.
enum class AnswerExtra { kUnset, kNone, kRatingDetails, kSelectedCard };

struct QuestionType {
  std::string_view name;
  std::initializer_list<ConfigKey> configuration;
  // The parts of an object answer the configuration's `fields` shows and requires.
  std::initializer_list<AnswerPart> parts = {};
  AnswerSource source = AnswerSource::kRespondent;
  Display display = Display::kUnset;
  AnswerShape shape = AnswerShape::kUnset;
  AnswerRule answer = nullptr;       // null unless source is kRespondent
  ConfigCheck check_keys = nullptr;  // null when the keys are independent
  SummaryKind summary = SummaryKind::kUnset;
  // With SummaryKind::kChoice: the configuration key that lists the choices ("options", or
  // "cards", whose items' "id" is the choice).
  std::string_view choices = {};
  Evaluation evaluation = Evaluation::kUnset;
  AnswerMedia media = AnswerMedia::kUnset;
  AnswerExtra extra = AnswerExtra::kUnset;
  // With SummaryKind::kRating, or AnswerExtra::kRatingDetails: the question's scale.
  ScaleOf scale = nullptr;
  TextForm text = TextForm::kUnset;
  ValueFormat format = ValueFormat::kPlain;
};

inline constexpr std::string_view kDefaultQuestionType = "voice";
inline constexpr std::array<std::string_view, 4> kRatingScaleTypes = {"stars", "emojis", "nps",
                                                                      "numbers"};
inline constexpr std::array<std::string_view, 2> kCardMediaTypes = {"image", "video"};

inline constexpr std::size_t kQuestionTypeCount = 32;
const std::array<QuestionType, kQuestionTypeCount>& questionTypes();
// Null for a name outside the table.
const QuestionType* findQuestionType(std::string_view name);
// Facts of the type named `name`, read by code that holds only the name (an answer's
// response_type); for a name outside the table: kNone.
SummaryKind summaryKindOf(std::string_view name);
AnswerMedia mediaOf(std::string_view name);
AnswerExtra extraOf(std::string_view name);
TextForm textFormOf(std::string_view name);
// Calls `each` with every text of an answer's value as its type's TextForm reads it (search).
void forEachText(std::string_view response_type, const boost::json::value& value,
                 const std::function<void(std::string_view)>& each);
// The same of a value as stored (its JSON text), parsed only when its type reads text from it
// and it is more than a string without escapes.
void forEachTextOfJson(std::string_view response_type, std::string_view value_json,
                       const std::function<void(std::string_view)>& each);

// The configured value of `key`, or the table's default for it; nullptr when neither exists.
// `question.response_type` must be in the table.
const boost::json::value* setting(const Question& question, std::string_view key);
// That value as a number (nullopt when it is none), or as a flag (false when it is no boolean).
std::optional<double> settingNumber(const Question& question, std::string_view key);
bool settingFlag(const Question& question, std::string_view key);

// The number a JSON value stands for in formulas, conditions and configurations: JSON numbers
// only, finite.
std::optional<double> numericValue(const boost::json::value& value);

}  // namespace feedback::questions
