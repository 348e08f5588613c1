#include "common/questions/object_answers.h"

#include <algorithm>
#include <set>

#include "common/questions/answer_rules.h"
#include "common/questions/calendar.h"
#include "common/questions/form_rules.h"
#include "common/questions/phone_numbers.h"

namespace feedback::questions {
namespace {

using Problem = std::optional<std::string>;

bool contains(const std::vector<std::string_view>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The entry of `fields` for `part` ({show?, required?}), or null.
const boost::json::object* partSettings(const Question& question, std::string_view part) {
  const auto* fields = question.configuration.if_contains("fields");
  if (!fields || !fields->is_object()) return nullptr;
  const auto* entry = fields->as_object().if_contains(part);
  return entry && entry->is_object() ? &entry->as_object() : nullptr;
}

Problem partValueProblem(const Question& question, const AnswerPart& part,
                         boost::json::value& value) {
  std::string_view text = value.as_string();
  switch (part.value) {
    case PartValue::kText:
      if (characterCount(text) > kMaxPartCharacters) {
        return "must be at most " + std::to_string(kMaxPartCharacters) + " characters";
      }
      return std::nullopt;
    case PartValue::kEmail:
      if (!isEmailAddress(text)) return "must be an email address such as name@example.com";
      return std::nullopt;
    case PartValue::kPhone: {
      const auto* country = setting(question, "default_country");
      auto number =
          e164Number(text, country && country->is_string() ? std::string_view(country->as_string())
                                                           : std::string_view());
      if (!number) return "must be a phone number in international form (+44 20 7946 0958)";
      value = std::move(*number);
      return std::nullopt;
    }
    case PartValue::kCountry:
      if (!isCountryCode(text)) return "must be an ISO 3166-1 alpha-2 country code (GB)";
      value = countryCodeOf(text);
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string_view> matrixIds(const Question& question, std::string_view key) {
  std::vector<std::string_view> out;
  const auto* list = setting(question, key);
  if (!list || !list->is_array()) return out;
  for (const auto& item : list->as_array()) {
    const auto* id = item.is_object() ? item.as_object().if_contains("id") : nullptr;
    if (id && id->is_string()) out.push_back(id->as_string());
  }
  return out;
}

Problem matrixAnswerProblem(const Question& question, boost::json::value& value) {
  if (!value.is_object()) return "must be an object from row id to column id";
  const auto rows = matrixIds(question, "rows");
  const auto columns = matrixIds(question, "columns");
  const bool multiple = settingFlag(question, "multiple");
  std::size_t covered = 0;
  for (const auto& [row, chosen] : value.as_object()) {
    if (!contains(rows, row)) return "names no row '" + std::string(row) + "'";
    if (!multiple) {
      if (!chosen.is_string() || !contains(columns, chosen.as_string())) {
        return "must give row '" + std::string(row) + "' one column id";
      }
      ++covered;
      continue;
    }
    if (!chosen.is_array()) return "must give row '" + std::string(row) + "' a list of column ids";
    std::set<std::string_view> seen;
    for (const auto& column : chosen.as_array()) {
      if (!column.is_string() || !contains(columns, column.as_string())) {
        return "must give row '" + std::string(row) + "' column ids only";
      }
      if (!seen.insert(column.as_string()).second) {
        return "must not repeat a column of row '" + std::string(row) + "'";
      }
    }
    covered += !seen.empty();
  }
  if (settingFlag(question, "all_rows_required") && covered < rows.size()) {
    return "must answer every row";
  }
  return std::nullopt;
}

Problem rankingAnswerProblem(const Question& question, boost::json::value& value) {
  const auto* options = setting(question, "options");
  if (!value.is_array() || !options || !options->is_array()) return "must be a list of options";
  std::set<std::string_view> known, seen;
  for (const auto& o : options->as_array()) {
    if (o.is_string()) known.insert(o.as_string());
  }
  for (const auto& item : value.as_array()) {
    if (!item.is_string() || !known.count(item.as_string())) {
      return "must hold only the question's options";
    }
    if (!seen.insert(item.as_string()).second) return "must not repeat an option";
  }
  if (settingFlag(question, "rank_all") && seen.size() != known.size()) {
    return "must rank every option";
  }
  return std::nullopt;
}

bool partShown(const Question& question, const AnswerPart& part) {
  const auto* entry = partSettings(question, part.name);
  const auto* show = entry ? entry->if_contains("show") : nullptr;
  return !show || !show->is_bool() || show->as_bool();
}

bool partRequired(const Question& question, const AnswerPart& part) {
  if (!partShown(question, part)) return false;
  const auto* entry = partSettings(question, part.name);
  const auto* required = entry ? entry->if_contains("required") : nullptr;
  return required && required->is_bool() ? required->as_bool() : part.required;
}

Problem partsAnswerProblem(const Question& question, boost::json::value& value) {
  const QuestionType* type = findQuestionType(question.response_type);
  if (!value.is_object() || !type) return "must be an object of its fields";
  auto& given = value.as_object();
  for (const auto& [name, part_value] : given) {
    const AnswerPart* part = nullptr;
    for (const auto& p : type->parts) {
      if (p.name == name) part = &p;
    }
    if (!part) return "has no field '" + std::string(name) + "'";
    if (!partShown(question, *part)) return "does not ask for '" + std::string(name) + "'";
    if (!part_value.is_string() && !part_value.is_null()) {
      return "must give '" + std::string(name) + "' as a string";
    }
  }
  for (const auto& part : type->parts) {
    auto* v = given.if_contains(part.name);
    const bool answered = v && v->is_string() && isAnswered(*v);
    if (!answered) {
      if (v) given.erase(part.name);  // a blank part is no part: not stored
      if (partRequired(question, part)) return "needs '" + std::string(part.name) + "'";
      continue;
    }
    if (auto problem = partValueProblem(question, part, *v)) {
      return "'" + std::string(part.name) + "' " + *problem;
    }
  }
  return std::nullopt;
}

Problem dateRangeAnswerProblem(const Question& question, boost::json::value& value) {
  if (!value.is_object()) return "must be {start, end}";
  const auto& range = value.as_object();
  for (const auto& entry : range) {
    if (entry.key() != "start" && entry.key() != "end") {
      return "has no field '" + std::string(entry.key()) + "'";
    }
  }
  const auto* start = range.if_contains("start");
  const auto* end = range.if_contains("end");
  if (!start || !end || !start->is_string() || !end->is_string() ||
      !isCalendarDate(start->as_string()) || !isCalendarDate(end->as_string())) {
    return "must be {start, end} with dates written YYYY-MM-DD";
  }
  if (start->as_string() > end->as_string()) return "must not end before it starts";
  const auto* min = setting(question, "min_date");
  const auto* max = setting(question, "max_date");
  if (min && min->is_string() && start->as_string() < min->as_string()) {
    return "must not start before " + std::string(min->as_string());
  }
  if (max && max->is_string() && end->as_string() > max->as_string()) {
    return "must not end after " + std::string(max->as_string());
  }
  return std::nullopt;
}

Problem consentAnswerProblem(const Question&, boost::json::value& value) {
  if (!value.is_bool() || !value.as_bool()) return "must be true: consent is given or not answered";
  return std::nullopt;
}

}  // namespace feedback::questions
