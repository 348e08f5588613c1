#pragma once
// Validation of a question's JSON parts: configuration (by the question-type table),
// condition (conditional visibility) and evaluator_config. Each throws ApiError with the
// contract's code and a `details` path such as "questions[2].configuration.options".

#include <boost/json/object.hpp>
#include <set>
#include <string>
#include <string_view>

#include "common/errors.h"
#include "services/links/question_types.h"

namespace feedback::links {

// INVALID_CONFIGURATION. `field_keys` are every question's keys in the link (formulas may
// read them); `own_key` is this question's.
void validateConfiguration(const QuestionType& type, const boost::json::object& configuration,
                           const std::string& path, const std::set<std::string>& field_keys,
                           const std::string& own_key);

// INVALID_CONDITION. `{}` is no condition; otherwise show_if (optional, "field_value"),
// field (an earlier question's field_key), operator and value.
void validateCondition(const boost::json::object& condition, const std::string& path,
                       const std::set<std::string>& earlier_field_keys);

// VALIDATION_ERROR: clarity_threshold (0..1), max_follow_ups (0..10), custom_fields (strings).
void validateEvaluatorConfig(const boost::json::object& config, const std::string& path);

// An absolute http:// or https:// URL of at most 2048 characters with a host.
bool isHttpUrl(std::string_view text, bool https_only);

// Parses a JSON object given as text by the caller; `code` when it is not one.
boost::json::object parseObject(std::string_view json, const std::string& path, ErrorCode code);

}  // namespace feedback::links
