#include "services/webhooks/pg_webhooks_store.h"

#include <pqxx/pqxx>

#include "common/pg/deadlock_retry.h"
#include "common/pg/sql_text.h"
#include "services/webhooks/dispatch_channel.h"

namespace feedback::webhooks {
namespace {

#define WEBHOOK_COLUMNS                                                   \
  "uuid, url, array_to_string(events, ','), enabled, link_uuid, " MICROS( \
      "date_created") ", " MICROS("date_updated") ", workspace_uuid, secret_sealed"

constexpr const char* kInsertWebhook = "webhooks_insert_webhook";
constexpr const char* kInsertWebhookSql =
    "INSERT INTO webhooks.webhooks (uuid, workspace_uuid, link_uuid, url, events, enabled, "
    "secret_sealed) VALUES ($1, $2, $3, $4, string_to_array($5, ','), $6, $7) "
    "RETURNING " MICROS("date_created") ", " MICROS("date_updated");

// The link's automatic webhook: inserted once; a repeated call finds the first.
constexpr const char* kPutLinkWebhook = "webhooks_put_link_webhook";
constexpr const char* kPutLinkWebhookSql =
    "WITH inserted AS ("
    "  INSERT INTO webhooks.webhooks (uuid, workspace_uuid, link_uuid, url, events, enabled,"
    "    secret_sealed) VALUES ($1, $2, $3, $4, string_to_array($5, ','), $6, $7)"
    "  ON CONFLICT (link_uuid) WHERE link_uuid IS NOT NULL DO NOTHING RETURNING " WEBHOOK_COLUMNS
    ") SELECT * FROM inserted UNION ALL SELECT " WEBHOOK_COLUMNS
    " FROM webhooks.webhooks WHERE link_uuid = $3 AND NOT EXISTS (SELECT 1 FROM inserted)";

constexpr const char* kSelectWebhook = "webhooks_select_webhook";
constexpr const char* kSelectWebhookSql = "SELECT " WEBHOOK_COLUMNS
                                          " FROM webhooks.webhooks WHERE workspace_uuid = $1 "
                                          "AND uuid = $2";

constexpr const char* kCountWebhooks = "webhooks_count_webhooks";
constexpr const char* kCountWebhooksSql =
    "SELECT count(*) FROM webhooks.webhooks WHERE workspace_uuid = $1";

constexpr const char* kListWebhooks = "webhooks_list_webhooks";
constexpr const char* kListWebhooksSql = "SELECT " WEBHOOK_COLUMNS
                                         " FROM webhooks.webhooks WHERE workspace_uuid = $1 "
                                         "ORDER BY date_created, uuid LIMIT $2 OFFSET $3";

// Queued sends and recorded deliveries go with the webhook (ON DELETE CASCADE).
constexpr const char* kDeleteWebhook = "webhooks_delete_webhook";
constexpr const char* kDeleteWebhookSql =
    "DELETE FROM webhooks.webhooks WHERE workspace_uuid = $1 AND uuid = $2";

constexpr const char* kRemoveLinkWebhooks = "webhooks_remove_link_webhooks";
constexpr const char* kRemoveLinkWebhooksSql =
    "DELETE FROM webhooks.webhooks WHERE workspace_uuid = $1 AND link_uuid = $2";

constexpr const char* kCountDeliveries = "webhooks_count_deliveries";
constexpr const char* kCountDeliveriesSql =
    "SELECT count(*) FROM webhooks.deliveries WHERE webhook_uuid = $1";

constexpr const char* kListDeliveries = "webhooks_list_deliveries";
constexpr const char* kListDeliveriesSql =
    "SELECT d.uuid, d.event_id, e.type, d.attempt, d.succeeded, d.status_code, d.duration_ms, "
    "d.error, d.response_body, e.test, d.redelivery, " MICROS("d.date_created") ", "
    MICROS("d.next_attempt_at") " FROM webhooks.deliveries d "
    "JOIN webhooks.events e ON e.event_id = d.event_id WHERE d.webhook_uuid = $1 "
    "ORDER BY d.date_created DESC, d.uuid LIMIT $2 OFFSET $3";

constexpr const char* kDeliveredEvent = "webhooks_delivered_event";
constexpr const char* kDeliveredEventSql =
    "SELECT e.event_id, e.type, e.link_uuid, e.payload, e.test FROM webhooks.deliveries d "
    "JOIN webhooks.events e ON e.event_id = d.event_id WHERE d.webhook_uuid = $1 AND d.uuid = $2";

// A redelivery or test event: the event (kept once) and its send, due now, requested (made
// even if the webhook is disabled). A redelivery's event is held (FOR SHARE) while its send is
// queued, and none is queued once its payload is erased (webhooks.erase_response_events).
constexpr const char* kQueueEvent = "webhooks_queue_event";
constexpr const char* kQueueEventSql =
    "WITH event AS ("
    "  INSERT INTO webhooks.events (event_id, type, workspace_uuid, link_uuid, payload, test)"
    "  VALUES ($2, $3, $4, $5, $6, $7) ON CONFLICT (event_id) DO NOTHING)"
    " INSERT INTO webhooks.pending (webhook_uuid, event_id, redelivery, requested)"
    " SELECT $1, $2, $8, true WHERE $7 OR EXISTS (SELECT 1 FROM webhooks.events"
    "  WHERE event_id = $2 AND payload IS NOT NULL FOR SHARE)";

#undef WEBHOOK_COLUMNS

std::string joined(const v1::Webhook& hook) {
  std::string out;
  for (const auto& e : hook.events()) out += (out.empty() ? "" : ",") + e;
  return out;
}

WebhookRecord recordFrom(const pqxx::row& row) {
  WebhookRecord out;
  auto& hook = out.webhook;
  hook.set_uuid(row[0].as<std::string>());
  hook.set_url(row[1].as<std::string>());
  std::string events = row[2].as<std::string>();
  for (std::size_t start = 0; start < events.size();) {
    std::size_t comma = events.find(',', start);
    if (comma == std::string::npos) comma = events.size();
    hook.add_events(events.substr(start, comma - start));
    start = comma + 1;
  }
  hook.set_enabled(row[3].as<bool>());
  if (!row[4].is_null()) hook.set_link_uuid(row[4].as<std::string>());
  hook.set_date_created_micros(row[5].as<int64_t>());
  hook.set_date_updated_micros(row[6].as<int64_t>());
  out.workspace_uuid = row[7].as<std::string>();
  out.sealed_secret = row[8].as<std::string>();
  return out;
}

}  // namespace

void PgWebhooksStore::prepare(pqxx::connection& c) {
  c.prepare(kInsertWebhook, kInsertWebhookSql);
  c.prepare(kPutLinkWebhook, kPutLinkWebhookSql);
  c.prepare(kSelectWebhook, kSelectWebhookSql);
  c.prepare(kCountWebhooks, kCountWebhooksSql);
  c.prepare(kListWebhooks, kListWebhooksSql);
  c.prepare(kDeleteWebhook, kDeleteWebhookSql);
  c.prepare(kRemoveLinkWebhooks, kRemoveLinkWebhooksSql);
  c.prepare(kCountDeliveries, kCountDeliveriesSql);
  c.prepare(kListDeliveries, kListDeliveriesSql);
  c.prepare(kDeliveredEvent, kDeliveredEventSql);
  c.prepare(kQueueEvent, kQueueEventSql);
}

void PgWebhooksStore::insertWebhook(WebhookRecord& record) {
  auto& hook = record.webhook;
  pqxx::work tx(connection_);
  auto row = tx.exec_prepared1(kInsertWebhook, hook.uuid(), record.workspace_uuid,
                               sql::nullIfEmpty(hook.link_uuid()), hook.url(), joined(hook),
                               hook.enabled(), record.sealed_secret);
  tx.commit();
  hook.set_date_created_micros(row[0].as<int64_t>());
  hook.set_date_updated_micros(row[1].as<int64_t>());
}

WebhookRecord PgWebhooksStore::putLinkWebhook(WebhookRecord& record) {
  auto& hook = record.webhook;
  pqxx::work tx(connection_);
  auto row =
      tx.exec_prepared1(kPutLinkWebhook, hook.uuid(), record.workspace_uuid, hook.link_uuid(),
                        hook.url(), joined(hook), hook.enabled(), record.sealed_secret);
  tx.commit();
  return recordFrom(row);
}

std::optional<WebhookRecord> PgWebhooksStore::findWebhook(const std::string& workspace_uuid,
                                                          const std::string& webhook_uuid) {
  pqxx::read_transaction tx(connection_);
  auto rows = tx.exec_prepared(kSelectWebhook, workspace_uuid, webhook_uuid);
  if (rows.empty()) return std::nullopt;
  return recordFrom(rows[0]);
}

int64_t PgWebhooksStore::countWebhooks(const std::string& workspace_uuid) {
  pqxx::read_transaction tx(connection_);
  return tx.exec_prepared1(kCountWebhooks, workspace_uuid)[0].as<int64_t>();
}

std::vector<v1::Webhook> PgWebhooksStore::listWebhooks(const std::string& workspace_uuid,
                                                       int64_t offset, int limit) {
  pqxx::read_transaction tx(connection_);
  std::vector<v1::Webhook> out;
  for (const auto& row : tx.exec_prepared(kListWebhooks, workspace_uuid, limit, offset)) {
    out.push_back(std::move(recordFrom(row).webhook));
  }
  return out;
}

// The delete cascades to the webhook's queued sends (webhook, then sends) while the
// dispatcher's recorder deletes sends and records their deliveries (send, then webhook): a
// deadlock now and then, which a second try gets past.
bool PgWebhooksStore::deleteWebhook(const std::string& workspace_uuid,
                                    const std::string& webhook_uuid) {
  return pg::retryOnDeadlock([&] {
    pqxx::work tx(connection_);
    auto result = tx.exec_prepared(kDeleteWebhook, workspace_uuid, webhook_uuid);
    tx.commit();
    return result.affected_rows() > 0;
  });
}

// Cascades as deleteWebhook does.
int PgWebhooksStore::removeLinkWebhooks(const std::string& workspace_uuid,
                                        const std::string& link_uuid) {
  return pg::retryOnDeadlock([&] {
    pqxx::work tx(connection_);
    auto result = tx.exec_prepared(kRemoveLinkWebhooks, workspace_uuid, link_uuid);
    tx.commit();
    return static_cast<int>(result.affected_rows());
  });
}

int64_t PgWebhooksStore::countDeliveries(const std::string& webhook_uuid) {
  pqxx::read_transaction tx(connection_);
  return tx.exec_prepared1(kCountDeliveries, webhook_uuid)[0].as<int64_t>();
}

std::vector<v1::Delivery> PgWebhooksStore::listDeliveries(const std::string& webhook_uuid,
                                                          int64_t offset, int limit) {
  pqxx::read_transaction tx(connection_);
  std::vector<v1::Delivery> out;
  for (const auto& row : tx.exec_prepared(kListDeliveries, webhook_uuid, limit, offset)) {
    v1::Delivery& d = out.emplace_back();
    d.set_uuid(row[0].as<std::string>());
    d.set_event_id(row[1].as<std::string>());
    d.set_event_type(row[2].as<std::string>());
    d.set_attempt(row[3].as<int>());
    d.set_succeeded(row[4].as<bool>());
    if (!row[5].is_null()) d.set_status_code(row[5].as<int>());
    d.set_duration_ms(row[6].as<int64_t>());
    if (!row[7].is_null()) d.set_error(row[7].as<std::string>());
    if (!row[8].is_null()) d.set_response_body(row[8].as<std::string>());
    d.set_test(row[9].as<bool>());
    d.set_redelivery(row[10].as<bool>());
    d.set_date_created_micros(row[11].as<int64_t>());
    if (!row[12].is_null()) d.set_next_attempt_micros(row[12].as<int64_t>());
  }
  return out;
}

std::optional<QueuedEvent> PgWebhooksStore::deliveredEvent(const std::string& webhook_uuid,
                                                           const std::string& delivery_uuid) {
  pqxx::read_transaction tx(connection_);
  auto rows = tx.exec_prepared(kDeliveredEvent, webhook_uuid, delivery_uuid);
  if (rows.empty()) return std::nullopt;
  QueuedEvent event;
  event.event_id = rows[0][0].as<std::string>();
  event.type = rows[0][1].as<std::string>();
  if (!rows[0][2].is_null()) event.link_uuid = rows[0][2].as<std::string>();
  event.erased = rows[0][3].is_null();
  if (!event.erased) event.payload = rows[0][3].as<std::string>();
  event.test = rows[0][4].as<bool>();
  return event;
}

bool PgWebhooksStore::queue(const std::string& webhook_uuid, const std::string& workspace_uuid,
                            const QueuedEvent& event) {
  pqxx::work tx(connection_);
  auto queued = tx.exec_prepared(kQueueEvent, webhook_uuid, event.event_id, event.type,
                                 workspace_uuid, sql::nullIfEmpty(event.link_uuid), event.payload,
                                 event.test, event.redelivery);
  if (queued.affected_rows() == 0) return false;
  notifyPending(tx);
  tx.commit();
  return true;
}

}  // namespace feedback::webhooks
