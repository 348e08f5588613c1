#pragma once
// The answer rules of the types answered with an object or a list (docs/api.md "Question
// types"): matrix, ranking, contact_info, address, date_range, and consent's lone `true`.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/questions/question_types.h"

namespace feedback::questions {

// An object from row id to column id (a list of column ids when `multiple`), known ids only,
// covering every row under `all_rows_required`.
std::optional<std::string> matrixAnswerProblem(const Question& question, boost::json::value& value);
// Distinct known options, best first; every option under `rank_all`.
std::optional<std::string> rankingAnswerProblem(const Question& question,
                                                boost::json::value& value);
// An object of the parts the configuration shows (contact_info, address): strings, the
// required ones present, emails valid, phones stored E.164, countries stored upper case; blank
// parts are dropped (all of them blank leaves {}, no answer).
std::optional<std::string> partsAnswerProblem(const Question& question, boost::json::value& value);
// {start, end}: dates, start <= end, within min_date..max_date.
std::optional<std::string> dateRangeAnswerProblem(const Question& question,
                                                  boost::json::value& value);
// Only `true`.
std::optional<std::string> consentAnswerProblem(const Question& question,
                                                boost::json::value& value);

// Whether the configuration shows the part, and requires it (a part not shown is not required).
bool partShown(const Question& question, const AnswerPart& part);
bool partRequired(const Question& question, const AnswerPart& part);

// The ids of a matrix's rows or columns (`key` "rows" or "columns"), in order.
std::vector<std::string_view> matrixIds(const Question& question, std::string_view key);

}  // namespace feedback::questions
