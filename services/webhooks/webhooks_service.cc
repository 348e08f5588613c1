#include "services/webhooks/webhooks_service.h"

#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/core/pagination.h"
#include "common/webhooks/webhook_rules.h"
#include "services/webhooks/sample_event.h"

namespace feedback::webhooks {
namespace {

// A workspace in the path other than the caller's is answered like an absent one, so that
// nobody learns which workspaces exist.
void requireOwnWorkspace(const feedback::common::v1::Caller& caller,
                         const std::string& workspace_uuid) {
  if (workspace_uuid != caller.workspace().uuid()) throw ApiError(ErrorCode::kNotFound);
}

void checkEvents(const v1::CreateWebhookRequest& request) {
  if (!request.has_events()) {
    throw ApiError(ErrorCode::kInvalidEvent, "events is required.",
                   {{"events", "must list at least one event"}});
  }
  if (request.events().empty()) {
    throw ApiError(ErrorCode::kInvalidEvent, "events must not be empty.",
                   {{"events", "must list at least one event"}});
  }
  for (int i = 0; i < request.events_size(); ++i) {
    if (!isEventType(request.events(i))) {
      throw ApiError(ErrorCode::kInvalidEvent, "Unknown event '" + request.events(i) + "'.",
                     {{"events[" + std::to_string(i) + "]",
                       "must be response.started or response.submitted"}});
    }
  }
}

}  // namespace

WebhooksService::WebhooksService(WebhooksSettings settings, const SecretBox& secrets)
    : settings_(settings), secrets_(secrets) {}

WebhookRecord WebhooksService::existing(WebhooksStore& store,
                                        const feedback::common::v1::Caller& caller,
                                        const std::string& workspace_uuid,
                                        const std::string& webhook_uuid) const {
  requireOwnWorkspace(caller, workspace_uuid);
  if (!isUuid(webhook_uuid)) throw ApiError(ErrorCode::kNotFound);
  auto found = store.findWebhook(workspace_uuid, webhook_uuid);
  if (!found) throw ApiError(ErrorCode::kNotFound, "No such webhook.");
  return std::move(*found);
}

v1::CreateWebhookResponse WebhooksService::createWebhook(WebhooksStore& store,
                                                         const v1::CreateWebhookRequest& request) {
  requireOwnWorkspace(request.caller(), request.workspace_uuid());
  if (!request.has_url()) {
    throw ApiError(ErrorCode::kInvalidWebhookUrl, "url is required.",
                   {{"url", "must be an absolute https:// URL"}});
  }
  checkUrl(request.url(), settings_.allow_private, "url");
  checkEvents(request);
  std::string secret = request.has_secret() ? request.secret() : generateSecret();
  if (request.has_secret()) checkSecret(secret, "secret");

  WebhookRecord record;
  record.workspace_uuid = request.workspace_uuid();
  record.sealed_secret = secrets_.seal(secret);
  auto& hook = record.webhook;
  hook.set_uuid(newUuid());
  hook.set_url(request.url());
  for (const auto& type : kEventTypes) {  // each once, in the table's order
    for (const auto& e : request.events()) {
      if (e == type) {
        hook.add_events(std::string(type));
        break;
      }
    }
  }
  hook.set_enabled(request.has_enabled() ? request.enabled() : true);
  store.insertWebhook(record);
  log::info("webhook_created",
            {{"webhook_uuid", hook.uuid()}, {"workspace_uuid", record.workspace_uuid}});
  v1::CreateWebhookResponse response;
  *response.mutable_webhook() = hook;
  response.set_secret(secret);
  return response;
}

v1::GetWebhookResponse WebhooksService::getWebhook(WebhooksStore& store,
                                                   const v1::GetWebhookRequest& request) {
  v1::GetWebhookResponse response;
  *response.mutable_webhook() =
      existing(store, request.caller(), request.workspace_uuid(), request.webhook_uuid()).webhook;
  return response;
}

v1::ListWebhooksResponse WebhooksService::listWebhooks(WebhooksStore& store,
                                                       const v1::ListWebhooksRequest& request) {
  requireOwnWorkspace(request.caller(), request.workspace_uuid());
  Page page = normalizePage(request.page());
  v1::ListWebhooksResponse response;
  response.set_count(store.countWebhooks(request.workspace_uuid()));
  requirePageExists(page, response.count());
  for (auto& hook : store.listWebhooks(request.workspace_uuid(), page.offset(), page.size)) {
    *response.add_webhooks() = std::move(hook);
  }
  return response;
}

v1::DeleteWebhookResponse WebhooksService::deleteWebhook(WebhooksStore& store,
                                                         const v1::DeleteWebhookRequest& request) {
  requireOwnWorkspace(request.caller(), request.workspace_uuid());
  if (!isUuid(request.webhook_uuid()) ||
      !store.deleteWebhook(request.workspace_uuid(), request.webhook_uuid())) {
    throw ApiError(ErrorCode::kNotFound, "No such webhook.");
  }
  log::info("webhook_deleted", {{"webhook_uuid", request.webhook_uuid()}});
  return {};
}

v1::ListDeliveriesResponse WebhooksService::listDeliveries(
    WebhooksStore& store, const v1::ListDeliveriesRequest& request) {
  existing(store, request.caller(), request.workspace_uuid(), request.webhook_uuid());
  Page page = normalizePage(request.page());
  v1::ListDeliveriesResponse response;
  response.set_count(store.countDeliveries(request.webhook_uuid()));
  requirePageExists(page, response.count());
  for (auto& d : store.listDeliveries(request.webhook_uuid(), page.offset(), page.size)) {
    *response.add_deliveries() = std::move(d);
  }
  return response;
}

v1::RedeliverResponse WebhooksService::redeliver(WebhooksStore& store,
                                                 const v1::RedeliverRequest& request) {
  auto hook = existing(store, request.caller(), request.workspace_uuid(), request.webhook_uuid());
  if (!isUuid(request.delivery_uuid())) throw ApiError(ErrorCode::kNotFound);
  auto event = store.deliveredEvent(request.webhook_uuid(), request.delivery_uuid());
  if (!event) throw ApiError(ErrorCode::kNotFound, "No such delivery.");
  event->redelivery = true;
  if (event->erased || !store.queue(request.webhook_uuid(), hook.workspace_uuid, *event)) {
    throw ApiError(ErrorCode::kNotFound,
                   "This delivery's event was erased with its response; it cannot be sent again.");
  }
  v1::RedeliverResponse response;
  response.set_event_id(event->event_id);
  return response;
}

v1::SendTestEventResponse WebhooksService::sendTestEvent(WebhooksStore& store,
                                                         const v1::SendTestEventRequest& request) {
  auto hook = existing(store, request.caller(), request.workspace_uuid(), request.webhook_uuid());
  QueuedEvent event = sampleEvent(hook.workspace_uuid, hook.webhook.link_uuid());
  store.queue(request.webhook_uuid(), hook.workspace_uuid, event);
  v1::SendTestEventResponse response;
  response.set_event_id(event.event_id);
  return response;
}

v1::PutLinkWebhookResponse WebhooksService::putLinkWebhook(
    WebhooksStore& store, const v1::PutLinkWebhookRequest& request) {
  if (!isUuid(request.workspace_uuid()) || !isUuid(request.link_uuid())) {
    throw ApiError(ErrorCode::kValidationError, "workspace_uuid and link_uuid must be UUIDs.");
  }
  // The links service checked the URL when the link was created; it is checked again here,
  // since this service owns what a webhook may be. Addresses are checked at every connection.
  checkUrl(request.url(), settings_.allow_private, "on_finished.webhook_url");
  std::string secret = request.secret().empty() ? generateSecret() : request.secret();
  checkSecret(secret, "on_finished.webhook_secret");
  WebhookRecord record;
  record.workspace_uuid = request.workspace_uuid();
  record.sealed_secret = secrets_.seal(secret);
  auto& hook = record.webhook;
  hook.set_uuid(newUuid());
  hook.set_url(request.url());
  hook.add_events(std::string(kResponseSubmitted));
  hook.set_enabled(true);
  hook.set_link_uuid(request.link_uuid());
  v1::PutLinkWebhookResponse response;
  *response.mutable_webhook() = store.putLinkWebhook(record).webhook;
  return response;
}

v1::RemoveLinkWebhooksResponse WebhooksService::removeLinkWebhooks(
    WebhooksStore& store, const v1::RemoveLinkWebhooksRequest& request) {
  if (!isUuid(request.workspace_uuid()) || !isUuid(request.link_uuid())) {
    throw ApiError(ErrorCode::kValidationError, "workspace_uuid and link_uuid must be UUIDs.");
  }
  v1::RemoveLinkWebhooksResponse response;
  response.set_removed(store.removeLinkWebhooks(request.workspace_uuid(), request.link_uuid()));
  return response;
}

}  // namespace feedback::webhooks
