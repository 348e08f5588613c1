#pragma once
// The events a response emits (SPEC.md "Events"), written to the outbox in the transaction
// that stores the response, with the payload of API-CONTRACT.md section 6 fixed there.

#include <string_view>

#include "services/responses/intake_form.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

inline constexpr std::string_view kResponseStarted = "response.started";
inline constexpr std::string_view kResponseSubmitted = "response.submitted";

// {"type", "timestamp", "data": {"workspace_uuid", "link": {uuid, name, slug}, "response"}}
// with a fresh event id; `record` is the response as common/api/response_json.h renders it.
OutboxEvent makeEvent(std::string_view type, int64_t at_micros, const IntakeForm& form,
                      std::string_view record);

}  // namespace feedback::responses
