#pragma once

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/webhooks/v1/webhooks.grpc.pb.h"
#include "services/webhooks/webhooks_service.h"

namespace feedback::webhooks {

// Thin adapter: every RPC runs WebhooksService on the worker pool with a PgWebhooksStore.
class WebhooksGrpc final : public v1::WebhooksService::CallbackService {
 public:
  WebhooksGrpc(WebhooksService& service, PgPool& pool, Counters& counters)
      : service_(service), pool_(pool), counters_(counters) {}

  grpc::ServerUnaryReactor* CreateWebhook(grpc::CallbackServerContext* context,
                                          const v1::CreateWebhookRequest* request,
                                          v1::CreateWebhookResponse* response) override;
  grpc::ServerUnaryReactor* GetWebhook(grpc::CallbackServerContext* context,
                                       const v1::GetWebhookRequest* request,
                                       v1::GetWebhookResponse* response) override;
  grpc::ServerUnaryReactor* ListWebhooks(grpc::CallbackServerContext* context,
                                         const v1::ListWebhooksRequest* request,
                                         v1::ListWebhooksResponse* response) override;
  grpc::ServerUnaryReactor* DeleteWebhook(grpc::CallbackServerContext* context,
                                          const v1::DeleteWebhookRequest* request,
                                          v1::DeleteWebhookResponse* response) override;
  grpc::ServerUnaryReactor* ListDeliveries(grpc::CallbackServerContext* context,
                                           const v1::ListDeliveriesRequest* request,
                                           v1::ListDeliveriesResponse* response) override;
  grpc::ServerUnaryReactor* Redeliver(grpc::CallbackServerContext* context,
                                      const v1::RedeliverRequest* request,
                                      v1::RedeliverResponse* response) override;
  grpc::ServerUnaryReactor* SendTestEvent(grpc::CallbackServerContext* context,
                                          const v1::SendTestEventRequest* request,
                                          v1::SendTestEventResponse* response) override;
  grpc::ServerUnaryReactor* PutLinkWebhook(grpc::CallbackServerContext* context,
                                           const v1::PutLinkWebhookRequest* request,
                                           v1::PutLinkWebhookResponse* response) override;
  grpc::ServerUnaryReactor* RemoveLinkWebhooks(grpc::CallbackServerContext* context,
                                               const v1::RemoveLinkWebhooksRequest* request,
                                               v1::RemoveLinkWebhooksResponse* response) override;

 private:
  WebhooksService& service_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::webhooks
