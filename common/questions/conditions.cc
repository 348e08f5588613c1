#include "common/questions/conditions.h"

#include <algorithm>

#include "common/core/ascii.h"
#include "common/core/errors.h"
#include "common/questions/answer_rules.h"
#include "common/questions/calendar.h"
#include "common/questions/form_rules.h"
#include "common/questions/object_answers.h"

namespace feedback::questions {
namespace {

const Operator* findOperator(std::string_view name) {
  for (const auto& op : kOperators) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::string operatorNames() {
  std::string out;
  for (const auto& op : kOperators) {
    if (!out.empty()) out += ", ";
    out += op.name;
  }
  return out;
}

// How an ordered field's values are written, for a value compared with it.
enum class Moment { kNumber, kDate, kTime, kInstant };

Moment momentOf(const Question& question, bool whole) {
  const QuestionType* type = findQuestionType(question.response_type);
  if (!type) return Moment::kNumber;
  if (!whole && type->shape == AnswerShape::kDateRange) return Moment::kDate;  // start, end
  switch (type->format) {
    case ValueFormat::kDate:
      return Moment::kDate;
    case ValueFormat::kTime:
      return Moment::kTime;
    case ValueFormat::kInstant:
      return Moment::kInstant;
    default:
      return Moment::kNumber;
  }
}

bool isMomentOf(Moment moment, const boost::json::value& v) {
  switch (moment) {
    case Moment::kNumber:
      return numericValue(v).has_value();
    case Moment::kDate:
      return v.is_string() && isCalendarDate(v.as_string());
    case Moment::kTime:
      return v.is_string() && isClockTime(v.as_string());
    case Moment::kInstant:
      return v.is_string() && instantMicros(v.as_string()).has_value();
  }
  return false;
}

class ConditionChecker {
 public:
  ConditionChecker(const QuestionsByKey& earlier) : earlier_(earlier) {}

  void check(const boost::json::object& condition, const std::string& path, int depth) {
    if (condition.contains("all") || condition.contains("any")) {
      return checkGroup(condition, path, depth);
    }
    checkLeaf(condition, path);
  }

 private:
  [[noreturn]] static void fail(const std::string& where, const std::string& problem) {
    throw ApiError(ErrorCode::kInvalidCondition, "'" + where + "' " + problem + ".",
                   {{where, problem}});
  }

  void checkGroup(const boost::json::object& group, const std::string& path, int depth) {
    if (group.size() != 1) fail(path, "must be a group with one key, all or any");
    const auto& [name, members] = *group.begin();
    const std::string where = path + "." + std::string(name);
    if (depth >= kMaxGroupDepth) fail(where, "nests groups more than 3 deep");
    if (!members.is_array() || members.as_array().empty() ||
        members.as_array().size() > kMaxGroupMembers) {
      fail(where, "must be a list of 1 to 20 conditions");
    }
    const auto& list = members.as_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string member = where + "[" + std::to_string(i) + "]";
      if (!list[i].is_object() || list[i].as_object().empty()) {
        fail(member, "must be a condition object");
      }
      check(list[i].as_object(), member, depth + 1);
    }
  }

  void checkLeaf(const boost::json::object& leaf, const std::string& path) {
    if (++leaves_ > kMaxConditionLeaves) fail(path, "is one condition too many: at most 50");
    for (const auto& entry : leaf) {
      auto k = entry.key();
      if (k != "show_if" && k != "field" && k != "operator" && k != "value") {
        fail(path + "." + std::string(k), "is not a condition key");
      }
    }
    if (const auto* show_if = leaf.if_contains("show_if");
        show_if && !(show_if->is_string() && show_if->as_string() == "field_value")) {
      fail(path + ".show_if", "must be \"field_value\"");
    }
    const auto* field = leaf.if_contains("field");
    const Question* question =
        field && field->is_string() ? fieldQuestion(field->as_string(), earlier_) : nullptr;
    if (!question) {
      fail(path + ".field",
           "must name an earlier question (or a part of its answer: key.part)" +
               (field && field->is_string() ? ", not '" + std::string(field->as_string()) + "'"
                                            : std::string()));
    }
    const auto* name = leaf.if_contains("operator");
    const Operator* op = name && name->is_string() ? findOperator(name->as_string()) : nullptr;
    if (!op) fail(path + ".operator", "must be one of " + operatorNames());
    const auto* value = leaf.if_contains("value");
    const bool whole = field->as_string().find('.') == boost::json::string::npos;
    checkValue(*op, value, momentOf(*question, whole), path + ".value");
  }

  static void checkValue(const Operator& op, const boost::json::value* value, Moment moment,
                         const std::string& where) {
    switch (op.operand) {
      case Operand::kNone:
        if (value) fail(where, "must be left out: " + std::string(op.name) + " takes no value");
        return;
      case Operand::kScalar:
        if (!value || !(value->is_string() || value->is_bool() || numericValue(*value))) {
          fail(where, "must be a number, a string or a boolean");
        }
        return;
      case Operand::kOrdered:
        if (!value || !isMomentOf(moment, *value)) {
          fail(where, moment == Moment::kDate   ? "must be a date written YYYY-MM-DD"
                      : moment == Moment::kTime ? "must be a time written HH:MM"
                      : moment == Moment::kInstant
                          ? "must be a date and time with an offset"
                          : "must be a number for " + std::string(op.name));
        }
        return;
      case Operand::kText:
        if (!value || !value->is_string()) {
          fail(where, "must be a string for " + std::string(op.name));
        }
        return;
      case Operand::kList:
        if (!value || !value->is_array() || value->as_array().empty() ||
            value->as_array().size() > 100) {
          fail(where, "must be a list of 1 to 100 values for " + std::string(op.name));
        }
        for (const auto& item : value->as_array()) {
          if (!item.is_string() && !numericValue(item)) {
            fail(where, "must hold only numbers and strings");
          }
        }
        return;
    }
  }

  const QuestionsByKey& earlier_;
  std::size_t leaves_ = 0;
};

bool scalarEquals(const boost::json::value& answer, const boost::json::value& expected) {
  if (answer.is_string()) return expected.is_string() && answer.as_string() == expected.as_string();
  if (answer.is_bool()) {
    if (expected.is_bool()) return answer.as_bool() == expected.as_bool();
    if (!expected.is_string()) return false;
    std::string word = asciiLowercase(expected.as_string());
    return answer.as_bool() ? (word == "true" || word == "yes") : (word == "false" || word == "no");
  }
  auto a = numericValue(answer), e = numericValue(expected);
  return a && e && *a == *e;
}

// Calls `test` with the answer, or each item of a list answer; true when one passes.
template <class Test>
bool anyItem(const boost::json::value& answer, Test test) {
  if (!answer.is_array()) return test(answer);
  const auto& items = answer.as_array();
  return std::any_of(items.begin(), items.end(), test);
}

bool textTest(const boost::json::value& answer, std::string_view op, std::string_view expected) {
  if (!answer.is_string()) return false;
  const std::string text = asciiLowercase(answer.as_string());
  const std::string word = asciiLowercase(expected);
  if (op == "starts_with") return text.compare(0, word.size(), word) == 0;
  if (op == "ends_with") {
    return text.size() >= word.size() &&
           text.compare(text.size() - word.size(), word.size(), word) == 0;
  }
  return text.find(word) != std::string::npos;  // contains
}

// -1, 0 or 1 comparing an answer with a condition's value: numbers as numbers, instants as
// instants, dates and clock times by their (ordered) text; nullopt when they do not compare.
std::optional<int> compare(const boost::json::value& answer, const boost::json::value& expected) {
  auto a = numericValue(answer), e = numericValue(expected);
  if (a && e) return *a < *e ? -1 : *a > *e ? 1 : 0;
  if (!answer.is_string() || !expected.is_string()) return std::nullopt;
  std::string_view x = answer.as_string(), y = expected.as_string();
  if ((isCalendarDate(x) && isCalendarDate(y)) || (isClockTime(x) && isClockTime(y))) {
    return x < y ? -1 : x > y ? 1 : 0;
  }
  auto ix = instantMicros(x), iy = instantMicros(y);
  if (ix && iy) return *ix < *iy ? -1 : *ix > *iy ? 1 : 0;
  return std::nullopt;
}

bool holdsItem(const boost::json::value& answer, const boost::json::value& item) {
  return anyItem(answer, [&item](const boost::json::value& v) { return scalarEquals(v, item); });
}

}  // namespace

std::vector<std::string> answerParts(const Question& question) {
  std::vector<std::string> out;
  const QuestionType* type = findQuestionType(question.response_type);
  if (!type) return out;
  switch (type->shape) {
    case AnswerShape::kParts:
      for (const auto& part : type->parts) out.emplace_back(part.name);
      break;
    case AnswerShape::kMatrix:
      for (auto id : matrixIds(question, "rows")) out.emplace_back(id);
      break;
    case AnswerShape::kDateRange:
      out = {"start", "end"};
      break;
    case AnswerShape::kSlider:
      if (settingFlag(question, "range")) out = {"low", "high"};
      break;
    default:
      break;
  }
  return out;
}

bool answeredWithObject(const Question& question) {
  const QuestionType* type = findQuestionType(question.response_type);
  if (!type) return false;
  return type->shape == AnswerShape::kParts || type->shape == AnswerShape::kMatrix ||
         type->shape == AnswerShape::kDateRange || type->shape == AnswerShape::kFile;
}

const Question* fieldQuestion(std::string_view field, const QuestionsByKey& questions) {
  const auto dot = field.find('.');
  auto it = questions.find(field.substr(0, dot));
  if (it == questions.end()) return nullptr;
  if (dot == std::string_view::npos) return it->second;
  const auto parts = answerParts(*it->second);
  const auto part = field.substr(dot + 1);
  return std::find(parts.begin(), parts.end(), part) != parts.end() ? it->second : nullptr;
}

const boost::json::value* answerPart(const boost::json::value& answer, std::string_view part) {
  if (part.empty()) return &answer;
  if (answer.is_object()) return answer.as_object().if_contains(part);
  if (answer.is_array() && answer.as_array().size() == 2) {
    if (part == "low") return &answer.as_array()[0];
    if (part == "high") return &answer.as_array()[1];
  }
  return nullptr;
}

void validateCondition(const boost::json::object& condition, const std::string& path,
                       const QuestionsByKey& earlier) {
  if (condition.empty()) return;
  ConditionChecker(earlier).check(condition, path, 0);
}

bool leafHolds(const boost::json::object& leaf, const boost::json::value* answer) {
  const auto* name = leaf.if_contains("operator");
  if (!name || !name->is_string()) return false;
  const std::string_view op = name->as_string();
  // A blank string, [] or {} is no answer: only is_not_answered holds on it.
  const bool answered = answer && isAnswered(*answer);
  if (op == "is_not_answered") return !answered;
  if (op == "is_answered" || !answered) return answered;
  const auto* expected = leaf.if_contains("value");
  if (!expected) return false;
  if (op == "equals") return holdsItem(*answer, *expected);
  if (op == "not_equals") return !holdsItem(*answer, *expected);
  if (op == "less_than" || op == "greater_than" || op == "less_than_or_equal" ||
      op == "greater_than_or_equal") {
    auto order = compare(*answer, *expected);
    if (!order) return false;
    if (op == "less_than") return *order < 0;
    if (op == "greater_than") return *order > 0;
    if (op == "less_than_or_equal") return *order <= 0;
    return *order >= 0;
  }
  if (op == "contains" || op == "starts_with" || op == "ends_with" || op == "not_contains") {
    if (!expected->is_string()) return false;
    const std::string_view test = op == "not_contains" ? "contains" : op;
    const bool found = anyItem(*answer, [&](const boost::json::value& v) {
      return textTest(v, test, expected->as_string());
    });
    return op == "not_contains" ? !found : found;
  }
  if (!expected->is_array()) return false;
  const auto& items = expected->as_array();
  if (op == "includes_any") {
    return std::any_of(items.begin(), items.end(),
                       [&](const boost::json::value& item) { return holdsItem(*answer, item); });
  }
  if (op == "includes_all") {
    return std::all_of(items.begin(), items.end(),
                       [&](const boost::json::value& item) { return holdsItem(*answer, item); });
  }
  if (op == "excludes_all") {
    return std::none_of(items.begin(), items.end(),
                        [&](const boost::json::value& item) { return holdsItem(*answer, item); });
  }
  return false;
}

bool conditionHolds(const boost::json::object& condition, const FieldAnswer& answer) {
  if (condition.empty()) return true;
  if (const auto* all = condition.if_contains("all")) {
    if (!all->is_array()) return false;
    for (const auto& member : all->as_array()) {
      if (!member.is_object() || !conditionHolds(member.as_object(), answer)) return false;
    }
    return true;
  }
  if (const auto* any = condition.if_contains("any")) {
    if (!any->is_array()) return false;
    for (const auto& member : any->as_array()) {
      if (member.is_object() && conditionHolds(member.as_object(), answer)) return true;
    }
    return false;
  }
  const auto* field = condition.if_contains("field");
  return leafHolds(condition, field && field->is_string() ? answer(field->as_string()) : nullptr);
}

}  // namespace feedback::questions
