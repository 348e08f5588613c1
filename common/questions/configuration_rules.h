#pragma once
// Validation of a question's JSON parts when a link is created or changed: configuration (by
// the question-type table) and evaluator_config (conditions: conditions.h; recall: recall.h). Each
// throws ApiError with the contract's code and a `details` path such as
// "questions[2].configuration.options".

#include <boost/json/object.hpp>
#include <set>
#include <string>
#include <string_view>

#include "common/core/errors.h"
#include "common/questions/question_types.h"

namespace feedback::questions {

// INVALID_CONFIGURATION. `field_keys` are every question's keys in the link (formulas may
// read them); `own_key` is this question's.
void validateConfiguration(const QuestionType& type, const boost::json::object& configuration,
                           const std::string& path, const std::set<std::string>& field_keys,
                           const std::string& own_key);

// Rules across keys (QuestionType::check_keys): min must not exceed max (number, time),
// min_date must not be after max_date (date_range).
void checkNumberRange(const Question& question, ConfigProblem report, void* context);
void checkTimeRange(const Question& question, ConfigProblem report, void* context);
void checkDateRange(const Question& question, ConfigProblem report, void* context);

// VALIDATION_ERROR: clarity_threshold (0..1), max_follow_ups (0..5), custom_fields (at most 10
// names of 1 to 64 characters); the limits are evaluation_rules.h's.
void validateEvaluatorConfig(const boost::json::object& config, const std::string& path);

// An absolute http:// or https:// URL of at most 2048 characters with a host.
bool isHttpUrl(std::string_view text, bool https_only);

// Parses a JSON object given as text by the caller; `code` when it is not one.
boost::json::object parseObject(std::string_view json, const std::string& path, ErrorCode code);

}  // namespace feedback::questions
