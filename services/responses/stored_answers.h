#pragma once
// The stored form of a response's answers: a JSON array in the API's own shape
// (common/api/response_json.h), so that what is stored is what clients read, unparsed.

#include <string>
#include <string_view>
#include <vector>

#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

std::string answersJson(const std::vector<feedback::responses::v1::Answer>& answers);
// Throws ApiError(kInternalError) when the text is not such an array.
std::vector<feedback::responses::v1::Answer> parseAnswers(std::string_view stored);

}  // namespace feedback::responses
