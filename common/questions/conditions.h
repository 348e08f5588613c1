#pragma once
// Conditional visibility (docs/api.md "Logic and recall"): a condition is a leaf
// {show_if: "field_value", field, operator, value} or a group {"all": [...]} / {"any": [...]},
// checked when a link is saved (INVALID_CONDITION with a details path) and evaluated for each
// response on the server. The page evaluates the same conditions
// (services/gateway/page/assets/form-rules.js); both are checked against
// tests/shared/form_rules_cases.json.

#include <array>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/questions/question_types.h"

namespace feedback::questions {

// What a leaf's `value` must be.
enum class Operand {
  kNone,     // no value (is_answered, is_not_answered)
  kScalar,   // a number, a string or a boolean
  kOrdered,  // a number, or a date, time or datetime when the field is one
  kText,     // a string
  kList,     // a non-empty list of numbers and strings
};

struct Operator {
  std::string_view name;
  Operand operand;
};

inline constexpr std::array<Operator, 15> kOperators = {{
    {"equals", Operand::kScalar},
    {"not_equals", Operand::kScalar},
    {"less_than", Operand::kOrdered},
    {"greater_than", Operand::kOrdered},
    {"less_than_or_equal", Operand::kOrdered},
    {"greater_than_or_equal", Operand::kOrdered},
    {"contains", Operand::kText},
    {"not_contains", Operand::kText},
    {"starts_with", Operand::kText},
    {"ends_with", Operand::kText},
    {"includes_any", Operand::kList},
    {"includes_all", Operand::kList},
    {"excludes_all", Operand::kList},
    {"is_answered", Operand::kNone},
    {"is_not_answered", Operand::kNone},
}};

inline constexpr std::size_t kMaxGroupMembers = 20;
inline constexpr int kMaxGroupDepth = 3;
inline constexpr std::size_t kMaxConditionLeaves = 50;

// The questions a condition or a placeholder may name, by field_key.
using QuestionsByKey = std::map<std::string, const Question*, std::less<>>;

// The parts of `question`'s answers a field may name (`key.part`): contact_info and address
// parts, matrix row ids, a date_range's start and end, a range slider's low and high.
std::vector<std::string> answerParts(const Question& question);
// Whether an answer of the question is an object, which reads as text only through a part.
bool answeredWithObject(const Question& question);
// The question named by `field` ("key" or "key.part") among `questions`, when the part (if
// any) is one of its answers' parts; null otherwise.
const Question* fieldQuestion(std::string_view field, const QuestionsByKey& questions);
// The part of `answer` that `part` names (an object's member, a pair's low or high); the
// whole answer when `part` is empty; null when there is no such part.
const boost::json::value* answerPart(const boost::json::value& answer, std::string_view part);

// INVALID_CONDITION with details by path ("questions[3].condition.all[1].operator") for a
// condition that is not `{}`, a valid leaf, or a valid group; `earlier` are the questions
// before this one in display order.
void validateCondition(const boost::json::object& condition, const std::string& path,
                       const QuestionsByKey& earlier);

// The answer to a field ("key" or "key.part") as conditions see it: null when the question is
// unanswered or not shown.
using FieldAnswer = std::function<const boost::json::value*(std::string_view field)>;

// Whether `condition` shows its question. `{}` always does.
bool conditionHolds(const boost::json::object& condition, const FieldAnswer& answer);
// Whether a leaf holds for `answer` (null: unanswered or not shown).
bool leafHolds(const boost::json::object& leaf, const boost::json::value* answer);

}  // namespace feedback::questions
