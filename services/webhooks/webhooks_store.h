#pragma once
// What the webhooks rules need from storage. PgWebhooksStore implements it with SQL.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "feedback/webhooks/v1/webhooks.pb.h"

namespace feedback::webhooks {

// A webhook as stored: the API's record plus its sealed secret.
struct WebhookRecord {
  v1::Webhook webhook;
  std::string workspace_uuid;
  std::string sealed_secret;
};

// An event to send to one webhook, queued by redeliveries and test events (the dispatcher
// queues the events of responses itself).
struct QueuedEvent {
  std::string event_id;
  std::string type;
  std::string link_uuid;  // empty for a test event
  std::string payload;
  bool test = false;
  bool redelivery = false;
  // Its response was erased (docs/api.md "Erasure and retention"): it has no payload to send.
  bool erased = false;
};

class WebhooksStore {
 public:
  virtual ~WebhooksStore() = default;

  // Fills the timestamps.
  virtual void insertWebhook(WebhookRecord& record) = 0;
  // The link's automatic webhook, inserted unless the link has one; returns the one it has.
  virtual WebhookRecord putLinkWebhook(WebhookRecord& record) = 0;
  virtual std::optional<WebhookRecord> findWebhook(const std::string& workspace_uuid,
                                                   const std::string& webhook_uuid) = 0;
  virtual int64_t countWebhooks(const std::string& workspace_uuid) = 0;
  // Oldest first, so that pages stay put while webhooks are added.
  virtual std::vector<v1::Webhook> listWebhooks(const std::string& workspace_uuid, int64_t offset,
                                                int limit) = 0;
  // False when there is no such webhook. Its queued sends and deliveries go with it.
  virtual bool deleteWebhook(const std::string& workspace_uuid,
                             const std::string& webhook_uuid) = 0;
  virtual int removeLinkWebhooks(const std::string& workspace_uuid,
                                 const std::string& link_uuid) = 0;

  virtual int64_t countDeliveries(const std::string& webhook_uuid) = 0;
  // Newest first.
  virtual std::vector<v1::Delivery> listDeliveries(const std::string& webhook_uuid, int64_t offset,
                                                   int limit) = 0;
  // The event a delivery of this webhook sent; nullopt when there is no such delivery.
  virtual std::optional<QueuedEvent> deliveredEvent(const std::string& webhook_uuid,
                                                    const std::string& delivery_uuid) = 0;
  // Queues `event` for the webhook, due now, and wakes the dispatchers. False when the event
  // is a kept one whose response has been erased meanwhile: nothing is queued.
  virtual bool queue(const std::string& webhook_uuid, const std::string& workspace_uuid,
                     const QueuedEvent& event) = 0;
};

}  // namespace feedback::webhooks
