#pragma once
// The stored form of a response's answers: a JSON array in the API's own shape
// (common/api/response_json.h), so that what is stored is what clients read.

#include <string>
#include <string_view>

#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

std::string answersJson(const feedback::responses::v1::Response& response);
// Appends the answers of `stored` to `response`; throws ApiError(kInternalError) when the
// text is not such an array.
void readAnswers(std::string_view stored, feedback::responses::v1::Response& response);

}  // namespace feedback::responses
