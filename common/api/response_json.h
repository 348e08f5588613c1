#pragma once
// The JSON of responses and answers (docs/api.md "Resources"), shared by the gateway's answers
// and the responses service's event payloads (docs/api.md "Events and webhooks").

#include <string>

#include "common/core/json_writer.h"
#include "feedback/responses/v1/responses.pb.h"

namespace feedback::api {

void writeAnswer(JsonWriter& json, const feedback::responses::v1::Answer& answer);
void writeResponse(JsonWriter& json, const feedback::responses::v1::Response& response);
std::string renderAnswer(const feedback::responses::v1::Answer& answer);
std::string renderResponse(const feedback::responses::v1::Response& response);

}  // namespace feedback::api
