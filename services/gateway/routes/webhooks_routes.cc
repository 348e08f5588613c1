// /v1/workspaces/{workspace_uuid}/webhooks/...: webhooks and their deliveries (webhooks service).
#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "common/core/time.h"
#include "feedback/webhooks/v1/webhooks.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/json/listing.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace wv1 = feedback::webhooks::v1;
using Stub = std::shared_ptr<wv1::WebhooksService::Stub>;

constexpr std::string_view kWebhooks = "/v1/workspaces/{uuid}/webhooks/";
constexpr std::string_view kWebhook = "/v1/workspaces/{uuid}/webhooks/{uuid}/";

std::string path(std::string_view base, std::string_view rest = {}) {
  return std::string(base) + std::string(rest);
}

void writeWebhook(JsonWriter& json, const wv1::Webhook& hook, const std::string* secret) {
  json.beginObject().field("uuid", hook.uuid()).field("url", hook.url()).key("events").beginArray();
  for (const auto& e : hook.events()) json.string(e);
  json.endArray().field("enabled", hook.enabled()).key("link_uuid");
  if (hook.link_uuid().empty()) {
    json.null();
  } else {
    json.string(hook.link_uuid());
  }
  json.field("date_created", formatTimestamp(hook.date_created_micros()))
      .field("date_updated", formatTimestamp(hook.date_updated_micros()));
  if (secret) json.field("secret", *secret);
  json.endObject();
}

std::string renderWebhook(const wv1::Webhook& hook, const std::string* secret = nullptr) {
  std::string out;
  JsonWriter json(out);
  writeWebhook(json, hook, secret);
  return out;
}

void writeNullable(JsonWriter& json, std::string_view key, const std::string& value) {
  json.key(key);
  if (value.empty()) {
    json.null();
  } else {
    json.string(value);
  }
}

void writeDelivery(JsonWriter& json, const wv1::Delivery& d) {
  json.beginObject()
      .field("uuid", d.uuid())
      .field("event_id", d.event_id())
      .field("event_type", d.event_type())
      .field("attempt", d.attempt())
      .field("status", d.succeeded() ? "succeeded" : "failed")
      .key("status_code");
  if (d.status_code() == 0) {
    json.null();
  } else {
    json.integer(d.status_code());
  }
  json.field("duration_ms", d.duration_ms());
  writeNullable(json, "error", d.error());
  writeNullable(json, "response_body", d.response_body());
  json.field("test", d.test()).field("redelivery", d.redelivery());
  json.field("date_created", formatTimestamp(d.date_created_micros())).key("next_attempt_at");
  if (d.next_attempt_micros() == 0) {
    json.null();
  } else {
    json.string(formatTimestamp(d.next_attempt_micros()));
  }
  json.endObject();
}

// The workspace and webhook of the path, and the caller, on any webhook request.
template <class Request>
Request scoped(const ContextPtr& ctx) {
  Request request;
  *request.mutable_caller() = *ctx->caller;
  request.set_workspace_uuid(ctx->params.at(0));
  return request;
}

void fillCreate(const ContextPtr& ctx, wv1::CreateWebhookRequest& request) {
  JsonFields body(ctx->body, "", {"url", "events", "enabled", "secret"});
  if (auto url = body.text("url", ErrorCode::kInvalidWebhookUrl)) request.set_url(*url);
  if (auto enabled = body.boolean("enabled")) request.set_enabled(*enabled);
  if (auto secret = body.text("secret")) request.set_secret(*secret);
  if (const auto* events = body.array("events")) {
    request.set_has_events(true);
    for (std::size_t i = 0; i < events->size(); ++i) {
      const auto& e = (*events)[i];
      if (!e.is_string()) {
        throw ApiError(ErrorCode::kInvalidEvent, "Events must be strings.",
                       {{"events[" + std::to_string(i) + "]", "must be a string"}});
      }
      request.add_events(std::string(e.as_string()));
    }
  }
}

void addWebhookCollection(Routes& routes, const Stub& hooks) {
  routes.add(
      Method::kGet, kWebhooks,
      {RouteAttributes{.scope = scopes::kWebhooksRead, .rpcs = {"WebhooksService/ListWebhooks"}},
       [hooks](const ContextPtr& ctx, Respond respond) {
         auto request = scoped<wv1::ListWebhooksRequest>(ctx);
         *request.mutable_page() = pageRequestFrom(ctx->request);
         auto page = request.page();
         callBackend<wv1::ListWebhooksResponse>(
             ctx, std::move(respond), std::move(request),
             [hooks](auto* c, auto* q, auto* r, auto done) {
               hooks->async()->ListWebhooks(c, q, r, std::move(done));
             },
             [ctx, page](const wv1::ListWebhooksResponse& response) {
               std::string results;
               JsonWriter json(results);
               json.beginArray();
               for (const auto& h : response.webhooks()) writeWebhook(json, h, nullptr);
               json.endArray();
               return jsonResponse(200, renderEnvelope(*ctx, page, response.count(), results));
             });
       }});
  routes.add(Method::kPost, kWebhooks,
             {RouteAttributes{.scope = scopes::kWebhooksWrite,
                              .idempotent = true,
                              .rpcs = {"WebhooksService/CreateWebhook"}},
              [hooks](const ContextPtr& ctx, Respond respond) {
                auto request = scoped<wv1::CreateWebhookRequest>(ctx);
                fillCreate(ctx, request);
                callBackend<wv1::CreateWebhookResponse>(
                    ctx, std::move(respond), std::move(request),
                    [hooks](auto* c, auto* q, auto* r, auto done) {
                      hooks->async()->CreateWebhook(c, q, r, std::move(done));
                    },
                    [](const wv1::CreateWebhookResponse& r) {
                      return jsonResponse(201, renderWebhook(r.webhook(), &r.secret()));
                    });
              }});
}

void addWebhookItem(Routes& routes, const Stub& hooks) {
  routes.add(
      Method::kGet, kWebhook,
      {RouteAttributes{.scope = scopes::kWebhooksRead, .rpcs = {"WebhooksService/GetWebhook"}},
       [hooks](const ContextPtr& ctx, Respond respond) {
         auto request = scoped<wv1::GetWebhookRequest>(ctx);
         request.set_webhook_uuid(ctx->params.at(1));
         callBackend<wv1::GetWebhookResponse>(
             ctx, std::move(respond), std::move(request),
             [hooks](auto* c, auto* q, auto* r, auto done) {
               hooks->async()->GetWebhook(c, q, r, std::move(done));
             },
             [](const wv1::GetWebhookResponse& r) {
               return jsonResponse(200, renderWebhook(r.webhook()));
             });
       }});
  routes.add(
      Method::kDelete, kWebhook,
      {RouteAttributes{.scope = scopes::kWebhooksWrite, .rpcs = {"WebhooksService/DeleteWebhook"}},
       [hooks](const ContextPtr& ctx, Respond respond) {
         auto request = scoped<wv1::DeleteWebhookRequest>(ctx);
         request.set_webhook_uuid(ctx->params.at(1));
         callBackend<wv1::DeleteWebhookResponse>(
             ctx, std::move(respond), std::move(request),
             [hooks](auto* c, auto* q, auto* r, auto done) {
               hooks->async()->DeleteWebhook(c, q, r, std::move(done));
             },
             [](const wv1::DeleteWebhookResponse&) { return messageResponse("Webhook deleted."); });
       }});
}

// 202: the event is queued; its delivery shows in the deliveries listing.
HttpResponse queuedResponse(std::string_view message, const std::string& event_id) {
  std::string body;
  JsonWriter json(body);
  json.beginObject().field("message", message).field("event_id", event_id).endObject();
  return jsonResponse(202, std::move(body));
}

void addDeliveryRoutes(Routes& routes, const Stub& hooks) {
  routes.add(
      Method::kGet, path(kWebhook, "deliveries/"),
      {RouteAttributes{.scope = scopes::kWebhooksRead, .rpcs = {"WebhooksService/ListDeliveries"}},
       [hooks](const ContextPtr& ctx, Respond respond) {
         auto request = scoped<wv1::ListDeliveriesRequest>(ctx);
         request.set_webhook_uuid(ctx->params.at(1));
         *request.mutable_page() = pageRequestFrom(ctx->request);
         auto page = request.page();
         callBackend<wv1::ListDeliveriesResponse>(
             ctx, std::move(respond), std::move(request),
             [hooks](auto* c, auto* q, auto* r, auto done) {
               hooks->async()->ListDeliveries(c, q, r, std::move(done));
             },
             [ctx, page](const wv1::ListDeliveriesResponse& response) {
               std::string results;
               JsonWriter json(results);
               json.beginArray();
               for (const auto& d : response.deliveries()) writeDelivery(json, d);
               json.endArray();
               return jsonResponse(200, renderEnvelope(*ctx, page, response.count(), results));
             });
       }});
  routes.add(Method::kPost, path(kWebhook, "deliveries/{uuid}/redeliver/"),
             {RouteAttributes{.scope = scopes::kWebhooksWrite,
                              .idempotent = true,
                              .rpcs = {"WebhooksService/Redeliver"}},
              [hooks](const ContextPtr& ctx, Respond respond) {
                JsonFields(ctx->body, "", {});
                auto request = scoped<wv1::RedeliverRequest>(ctx);
                request.set_webhook_uuid(ctx->params.at(1));
                request.set_delivery_uuid(ctx->params.at(2));
                callBackend<wv1::RedeliverResponse>(
                    ctx, std::move(respond), std::move(request),
                    [hooks](auto* c, auto* q, auto* r, auto done) {
                      hooks->async()->Redeliver(c, q, r, std::move(done));
                    },
                    [](const wv1::RedeliverResponse& r) {
                      return queuedResponse("The event will be delivered again.", r.event_id());
                    });
              }});
  routes.add(Method::kPost, path(kWebhook, "test/"),
             {RouteAttributes{.scope = scopes::kWebhooksWrite,
                              .idempotent = true,
                              .rpcs = {"WebhooksService/SendTestEvent"}},
              [hooks](const ContextPtr& ctx, Respond respond) {
                JsonFields(ctx->body, "", {});
                auto request = scoped<wv1::SendTestEventRequest>(ctx);
                request.set_webhook_uuid(ctx->params.at(1));
                callBackend<wv1::SendTestEventResponse>(
                    ctx, std::move(respond), std::move(request),
                    [hooks](auto* c, auto* q, auto* r, auto done) {
                      hooks->async()->SendTestEvent(c, q, r, std::move(done));
                    },
                    [](const wv1::SendTestEventResponse& r) {
                      return queuedResponse("A test event will be delivered.", r.event_id());
                    });
              }});
}

}  // namespace

void addWebhooksRoutes(Routes& routes, const Backends& backends) {
  Stub hooks = wv1::WebhooksService::NewStub(backends.webhooks);
  addWebhookCollection(routes, hooks);
  addWebhookItem(routes, hooks);
  addDeliveryRoutes(routes, hooks);
}

}  // namespace feedback::gateway
