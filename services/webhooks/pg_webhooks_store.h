#pragma once

#include <pqxx/connection>

#include "services/webhooks/webhooks_store.h"

namespace feedback::webhooks {

// WebhooksStore on PostgreSQL (schema `webhooks`), through prepared statements.
class PgWebhooksStore final : public WebhooksStore {
 public:
  explicit PgWebhooksStore(pqxx::connection& connection) : connection_(connection) {}
  static void prepare(pqxx::connection& connection);

  void insertWebhook(WebhookRecord& record) override;
  WebhookRecord putLinkWebhook(WebhookRecord& record) override;
  std::optional<WebhookRecord> findWebhook(const std::string& workspace_uuid,
                                           const std::string& webhook_uuid) override;
  int64_t countWebhooks(const std::string& workspace_uuid) override;
  std::vector<v1::Webhook> listWebhooks(const std::string& workspace_uuid, int64_t offset,
                                        int limit) override;
  bool deleteWebhook(const std::string& workspace_uuid, const std::string& webhook_uuid) override;
  int removeLinkWebhooks(const std::string& workspace_uuid, const std::string& link_uuid) override;
  int64_t countDeliveries(const std::string& webhook_uuid) override;
  std::vector<v1::Delivery> listDeliveries(const std::string& webhook_uuid, int64_t offset,
                                           int limit) override;
  std::optional<QueuedEvent> deliveredEvent(const std::string& webhook_uuid,
                                            const std::string& delivery_uuid) override;
  bool queue(const std::string& webhook_uuid, const std::string& workspace_uuid,
             const QueuedEvent& event) override;

 private:
  pqxx::connection& connection_;
};

}  // namespace feedback::webhooks
