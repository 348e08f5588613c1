#pragma once
// The PostgreSQL notification channels that wake the dispatchers, so that they need not poll.

#include <pqxx/transaction_base>
#include <string>

#include "common/webhooks/webhook_rules.h"

namespace feedback::webhooks {

using webhooks::kOutboxChannel;  // events written to responses.outbox_events
// Sends queued: by the API (redeliveries, test events) and by a fan-out. Every dispatcher then
// claims at its next round.
inline constexpr const char* kPendingChannel = "webhooks_pending";
// Sends cancelled by an erasure while some dispatcher may hold them claimed: the payload lists
// their pending ids, comma-separated (webhooks.erase_response_events, migration 007).
inline constexpr const char* kErasedChannel = "webhooks_erased";

// Tells the dispatchers, at the commit of `tx`, that it queued sends.
inline void notifyPending(pqxx::transaction_base& tx) {
  tx.exec(std::string("NOTIFY ") + kPendingChannel);
}

}  // namespace feedback::webhooks
