#pragma once
// The PostgreSQL notification channels that wake the dispatchers, so that they need not poll.

namespace feedback::webhooks {

// Events written to responses.outbox_events (its trigger, responses migration 002).
inline constexpr const char* kOutboxChannel = "responses_outbox";
// Sends queued by the API (redeliveries, test events).
inline constexpr const char* kPendingChannel = "webhooks_pending";

}  // namespace feedback::webhooks
