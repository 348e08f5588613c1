#pragma once
// Custom fields (evaluator_config.custom_fields): for each name, the sentence of the answer
// that covers it. A name is read as words (split at "_", "-" and spaces, stop words dropped);
// a sentence covers it when it holds every one of those words, compared by stem (text_units.h:
// "pricing" covers "price"). The first such sentence is the field's value; none: null.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feedback::responses::evaluation {

using CustomFieldValues = std::vector<std::pair<std::string, std::optional<std::string>>>;

CustomFieldValues customFields(std::string_view text, const std::vector<std::string>& names);

// The name as a respondent reads it: "delivery_time" as "delivery time".
std::string readableFieldName(std::string_view name);

}  // namespace feedback::responses::evaluation
