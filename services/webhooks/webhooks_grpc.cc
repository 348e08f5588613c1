#include "services/webhooks/webhooks_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/webhooks/pg_webhooks_store.h"

namespace feedback::webhooks {

grpc::ServerUnaryReactor* WebhooksGrpc::CreateWebhook(grpc::CallbackServerContext* c,
                                                      const v1::CreateWebhookRequest* q,
                                                      v1::CreateWebhookResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "CreateWebhook", service_,
                                              &WebhooksService::createWebhook, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::GetWebhook(grpc::CallbackServerContext* c,
                                                   const v1::GetWebhookRequest* q,
                                                   v1::GetWebhookResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "GetWebhook", service_,
                                              &WebhooksService::getWebhook, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::ListWebhooks(grpc::CallbackServerContext* c,
                                                     const v1::ListWebhooksRequest* q,
                                                     v1::ListWebhooksResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "ListWebhooks", service_,
                                              &WebhooksService::listWebhooks, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::DeleteWebhook(grpc::CallbackServerContext* c,
                                                      const v1::DeleteWebhookRequest* q,
                                                      v1::DeleteWebhookResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "DeleteWebhook", service_,
                                              &WebhooksService::deleteWebhook, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::ListDeliveries(grpc::CallbackServerContext* c,
                                                       const v1::ListDeliveriesRequest* q,
                                                       v1::ListDeliveriesResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "ListDeliveries", service_,
                                              &WebhooksService::listDeliveries, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::Redeliver(grpc::CallbackServerContext* c,
                                                  const v1::RedeliverRequest* q,
                                                  v1::RedeliverResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "Redeliver", service_,
                                              &WebhooksService::redeliver, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::SendTestEvent(grpc::CallbackServerContext* c,
                                                      const v1::SendTestEventRequest* q,
                                                      v1::SendTestEventResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "SendTestEvent", service_,
                                              &WebhooksService::sendTestEvent, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::PutLinkWebhook(grpc::CallbackServerContext* c,
                                                       const v1::PutLinkWebhookRequest* q,
                                                       v1::PutLinkWebhookResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "PutLinkWebhook", service_,
                                              &WebhooksService::putLinkWebhook, q, r);
}

grpc::ServerUnaryReactor* WebhooksGrpc::RemoveLinkWebhooks(grpc::CallbackServerContext* c,
                                                           const v1::RemoveLinkWebhooksRequest* q,
                                                           v1::RemoveLinkWebhooksResponse* r) {
  return service::callOnPool<PgWebhooksStore>(c, pool_, counters_, "RemoveLinkWebhooks", service_,
                                              &WebhooksService::removeLinkWebhooks, q, r);
}

}  // namespace feedback::webhooks
