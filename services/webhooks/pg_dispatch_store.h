#pragma once
// The dispatcher's SQL: taking events from the responses outbox and queueing one send per
// matching webhook (fan-out), claiming due sends, and recording attempts. Each call is one
// statement in its own transaction, so that any number of dispatchers can run side by side.

#include <pqxx/connection>
#include <string>
#include <vector>

#include "services/webhooks/retry_schedule.h"

namespace feedback::webhooks {

// How long attempts stay listed (GET .../deliveries/) and events can be redelivered.
inline constexpr int kDeliveryRetentionDays = 30;

// A claimed send: one event for one webhook.
struct Send {
  int64_t pending_id = 0;
  std::string webhook_uuid;
  std::string event_id;
  std::string event_type;
  std::string workspace_uuid;
  std::string payload;
  std::string url;
  std::string sealed_secret;
  int attempt = 1;  // this one's number
  bool redelivery = false;
};

// An attempt made, to record.
struct Attempt {
  Send send;
  std::string delivery_uuid;
  net::HttpResult result;
  AttemptOutcome outcome;
};

// Webhooks with sends in flight at this dispatcher, and how many.
struct Busy {
  std::vector<std::string> webhook_uuids;
  std::vector<int64_t> sending;
};

class PgDispatchStore {
 public:
  explicit PgDispatchStore(pqxx::connection& connection) : connection_(connection) {}
  static void prepare(pqxx::connection& connection);
  // prepare() for the dispatcher's own connections, which also commit without waiting for
  // the disk (a claim, fan-out or record lost in a crash of PostgreSQL is undone whole, so
  // its events are sent again, at least once with the same webhook-id, never lost; what the
  // API acknowledges is written by other connections, which wait) and plan every call.
  static void prepareDispatcher(pqxx::connection& connection);
  // Only what prune() needs, for the API's pool.
  static void preparePrune(pqxx::connection& connection);

  // Moves up to `limit` outbox rows into sends of the enabled webhooks that want their events
  // (dropping events nobody wants).
  struct FannedOut {
    int rows = 0;    // fewer than `limit`: the outbox held no more that could be taken
    int events = 0;  // taken from those rows
    int sends = 0;   // queued for them
  };
  FannedOut fanOut(int limit);
  // Age of the oldest event still in the outbox (not yet fanned out), in seconds; 0 when empty.
  double outboxLag();
  // Claims up to `limit` due sends, at most `per_webhook` per webhook counting those in
  // `busy`, leasing each for `lease` (it comes due again if no attempt is recorded by then).
  std::vector<Send> claim(int limit, int per_webhook, const Busy& busy, Millis lease);
  // Time until the next send comes due, leaving out webhooks with `per_webhook` sends in
  // `busy` (they wait for one of those to end); nullopt when none is queued.
  std::optional<Millis> nextDue(int per_webhook, const Busy& busy);
  // Records attempts, reschedules or removes their sends, disables webhooks that answered 410.
  void record(const std::vector<Attempt>& attempts);
  // Forgets up to `batch` deliveries older than `days` and up to `batch` such events that no
  // send or kept delivery needs, oldest first.
  struct Pruned {
    int deliveries = 0;
    int events = 0;
  };
  Pruned prune(int days, int batch);

 private:
  pqxx::connection& connection_;
};

}  // namespace feedback::webhooks
