#pragma once
// The rules of webhooks: who may see which, what a webhook may be, secrets, deliveries and
// the events an API call queues. Knows nothing of gRPC or SQL: requests and answers are the
// protobuf messages, storage is a WebhooksStore.

#include "common/core/secret_box.h"
#include "feedback/webhooks/v1/webhooks.pb.h"
#include "services/webhooks/webhooks_store.h"

namespace feedback::webhooks {

struct WebhooksSettings {
  // Accept URLs on loopback and private addresses (tests and closed networks only).
  bool allow_private = false;
};

class WebhooksService {
 public:
  WebhooksService(WebhooksSettings settings, const SecretBox& secrets);

  v1::CreateWebhookResponse createWebhook(WebhooksStore& store,
                                          const v1::CreateWebhookRequest& request);
  v1::GetWebhookResponse getWebhook(WebhooksStore& store, const v1::GetWebhookRequest& request);
  v1::ListWebhooksResponse listWebhooks(WebhooksStore& store,
                                        const v1::ListWebhooksRequest& request);
  v1::DeleteWebhookResponse deleteWebhook(WebhooksStore& store,
                                          const v1::DeleteWebhookRequest& request);
  v1::ListDeliveriesResponse listDeliveries(WebhooksStore& store,
                                            const v1::ListDeliveriesRequest& request);
  v1::RedeliverResponse redeliver(WebhooksStore& store, const v1::RedeliverRequest& request);
  v1::SendTestEventResponse sendTestEvent(WebhooksStore& store,
                                          const v1::SendTestEventRequest& request);
  v1::PutLinkWebhookResponse putLinkWebhook(WebhooksStore& store,
                                            const v1::PutLinkWebhookRequest& request);
  v1::RemoveLinkWebhooksResponse removeLinkWebhooks(WebhooksStore& store,
                                                    const v1::RemoveLinkWebhooksRequest& request);

 private:
  WebhookRecord existing(WebhooksStore& store, const feedback::common::v1::Caller& caller,
                         const std::string& workspace_uuid, const std::string& webhook_uuid) const;
  WebhooksSettings settings_;
  const SecretBox& secrets_;
};

}  // namespace feedback::webhooks
