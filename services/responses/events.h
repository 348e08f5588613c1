#pragma once
// The events a response emits (docs/api.md "Events and webhooks"), written to the outbox in
// the transaction that stores the response, with their payload fixed there.

#include <string_view>

#include "common/webhooks/webhook_rules.h"
#include "services/responses/intake_form.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

using webhooks::kResponseStarted;
using webhooks::kResponseSubmitted;

// {"type", "timestamp", "data": {"workspace_uuid", "link": {uuid, name, slug}, "response"}}
// with a fresh event id; `record` is the response as common/api/response_json.h renders it.
// The type comes first: a one-shot row's other payload is made by swapping it
// (kSubmittedPayloadPrefix, webhook_rules.h).
OutboxEvent makeEvent(std::string_view type, int64_t at_micros, const IntakeForm& form,
                      std::string_view record);

// Both events of a response completed in one call, as one outbox row: response.submitted's,
// standing also for response.started (its own id; its payload the same but for the type).
// Half the rows to write and to fan out as two events would take.
OutboxEvent makeCompletedEvents(int64_t at_micros, const IntakeForm& form, std::string_view record);

}  // namespace feedback::responses
