// /v1/links/: feedback links and their questions (links service).
#include <algorithm>

#include <charconv>

#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "common/core/time.h"
#include "common/redis/link_versions.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/query.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/routes/backend_call.h"
#include "services/gateway/routes/listing.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace lv1 = feedback::links::v1;

// --- JSON -> protobuf ---------------------------------------------------------------------

void readSettings(const boost::json::object& object, lv1::LinkSettings& out) {
  JsonFields f(
      object, "settings",
      {"description", "thankYouMessage", "redirectUrl", "tts_enabled", "live_transcription"});
  if (auto v = f.text("description")) out.set_description(*v);
  if (auto v = f.text("thankYouMessage")) out.set_thank_you_message(*v);
  if (auto v = f.text("redirectUrl")) out.set_redirect_url(*v);
  if (auto v = f.boolean("tts_enabled")) out.set_tts_enabled(*v);
  if (auto v = f.boolean("live_transcription")) out.set_live_transcription(*v);
}

// PATCH may name existing questions by uuid; creation may not.
enum class QuestionKeys { kCreate, kUpdate };

void readQuestion(const boost::json::value& value, const std::string& path, QuestionKeys keys,
                  lv1::QuestionDraft& out) {
  if (!value.is_object()) {
    throw ApiError(ErrorCode::kValidationError, "Every question must be an object.",
                   {{path, "must be an object"}});
  }
  const auto& object = value.as_object();
  JsonFields f = keys == QuestionKeys::kUpdate
                     ? JsonFields(object, path,
                                  {"uuid", "prompt", "type", "field_key", "order", "required",
                                   "configuration", "condition", "enable_dynamic_probing",
                                   "fallback_to_text", "evaluator_config"})
                     : JsonFields(object, path,
                                  {"prompt", "type", "field_key", "order", "required",
                                   "configuration", "condition", "enable_dynamic_probing",
                                   "fallback_to_text", "evaluator_config"});
  if (auto v = f.text("uuid")) out.set_uuid(*v);
  if (auto v = f.text("prompt")) out.set_prompt(*v);
  if (auto v = f.text("type")) out.set_type(*v);
  if (auto v = f.text("field_key")) out.set_field_key(*v);
  if (auto v = f.integer("order")) {
    // Out-of-range values are clamped so that the links service reports them.
    out.set_order(static_cast<int32_t>(std::clamp<int64_t>(*v, -1, 1000001)));
  }
  if (auto v = f.boolean("required")) out.set_required(*v);
  if (const auto* o = f.object("configuration")) out.set_configuration_json(toJsonText(*o));
  if (const auto* o = f.object("condition")) out.set_condition_json(toJsonText(*o));
  if (auto v = f.boolean("enable_dynamic_probing")) out.set_enable_dynamic_probing(*v);
  if (auto v = f.boolean("fallback_to_text")) out.set_fallback_to_text(*v);
  if (const auto* o = f.object("evaluator_config")) out.set_evaluator_config_json(toJsonText(*o));
}

lv1::CreateLinkRequest createRequestFrom(const RequestContext& ctx) {
  JsonFields f(ctx.body, "", {"name", "slug", "status", "settings", "questions", "on_finished"});
  lv1::CreateLinkRequest request;
  *request.mutable_caller() = ctx.caller;
  if (auto v = f.text("name")) request.set_name(*v);
  if (auto v = f.text("slug")) request.set_slug(*v);
  if (auto v = f.text("status")) request.set_status(*v);
  if (const auto* o = f.object("settings")) readSettings(*o, *request.mutable_settings());
  if (const auto* questions = f.array("questions")) {
    for (std::size_t i = 0; i < questions->size(); ++i) {
      readQuestion((*questions)[i], "questions[" + std::to_string(i) + "]", QuestionKeys::kCreate,
                   *request.add_questions());
    }
  }
  if (const auto* o = f.object("on_finished")) {
    JsonFields on(*o, "on_finished", {"webhook_url", "webhook_secret"});
    if (auto v = on.text("webhook_url")) request.mutable_on_finished()->set_webhook_url(*v);
    if (auto v = on.text("webhook_secret")) request.mutable_on_finished()->set_webhook_secret(*v);
  }
  return request;
}

// PATCH: a key given as null resets that field (settings to their defaults; name, slug and
// status to empty, which the links service refuses with the contract's code).
lv1::UpdateLinkRequest updateRequestFrom(const RequestContext& ctx) {
  JsonFields f(ctx.body, "", {"name", "slug", "status", "settings", "questions"});
  lv1::UpdateLinkRequest request;
  *request.mutable_caller() = ctx.caller;
  request.set_link_uuid(ctx.params.at(0));
  auto given = [&ctx](std::string_view key) { return ctx.body.contains(key); };
  if (given("name")) request.set_name(f.text("name").value_or(""));
  if (given("slug")) request.set_slug(f.text("slug").value_or(""));
  if (given("status")) request.set_status(f.text("status").value_or(""));
  if (const auto* o = f.object("settings")) {
    readSettings(*o, *request.mutable_settings());
    static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
        {"description", "description"},
        {"thankYouMessage", "thank_you_message"},
        {"redirectUrl", "redirect_url"},
        {"tts_enabled", "tts_enabled"},
        {"live_transcription", "live_transcription"}};
    for (const auto& [json_name, proto_name] : kNames) {
      const auto* v = o->if_contains(json_name);
      if (v && v->is_null()) request.add_reset_settings(std::string(proto_name));
    }
  }
  if (given("questions")) {
    request.set_replace_questions(true);
    const auto* questions = f.array("questions");
    for (std::size_t i = 0; questions && i < questions->size(); ++i) {
      readQuestion((*questions)[i], "questions[" + std::to_string(i) + "]", QuestionKeys::kUpdate,
                   *request.add_questions());
    }
  }
  return request;
}

// --- protobuf -> JSON ---------------------------------------------------------------------

void writeOptional(JsonWriter& json, std::string_view key, bool present, const std::string& v) {
  json.key(key);
  if (present) {
    json.string(v);
  } else {
    json.null();
  }
}

void writeQuestion(JsonWriter& json, const lv1::Question& q) {
  json.beginObject()
      .field("uuid", q.uuid())
      .field("prompt", q.prompt())
      .field("field_key", q.field_key())
      .field("response_type", q.response_type());
  json.key("configuration").raw(q.configuration_json());
  json.field("order", q.order()).field("required", q.required());
  json.key("condition").raw(q.condition_json());
  json.field("enable_dynamic_probing", q.enable_dynamic_probing())
      .field("fallback_to_text", q.fallback_to_text());
  json.key("evaluator_config").raw(q.evaluator_config_json());
  json.field("date_created", formatTimestamp(q.date_created_micros()))
      .field("date_updated", formatTimestamp(q.date_updated_micros()))
      .endObject();
}

void writeLink(JsonWriter& json, const lv1::Link& link) {
  const auto& s = link.settings();
  json.beginObject()
      .field("uuid", link.uuid())
      .field("name", link.name())
      .field("slug", link.slug())
      .field("status", link.status())
      .key("settings")
      .beginObject();
  writeOptional(json, "description", s.has_description(), s.description());
  json.field("thankYouMessage", s.thank_you_message());
  writeOptional(json, "redirectUrl", s.has_redirect_url(), s.redirect_url());
  json.field("tts_enabled", s.tts_enabled())
      .field("live_transcription", s.live_transcription())
      .endObject();
  json.key("questions").beginArray();
  for (const auto& q : link.questions()) writeQuestion(json, q);
  json.endArray()
      .field("response_count", link.response_count())
      .field("public_url", link.public_url())
      .field("date_created", formatTimestamp(link.date_created_micros()))
      .field("date_updated", formatTimestamp(link.date_updated_micros()))
      .endObject();
}

std::string renderLink(const lv1::Link& link) {
  std::string body;
  body.reserve(1024 + 512 * static_cast<std::size_t>(link.questions_size()));
  JsonWriter json(body);
  writeLink(json, link);
  return body;
}

HttpResponse linkResponse(int status, const lv1::Link& link) {
  return jsonResponse(status, renderLink(link));
}

// The link version read with the API key: nullopt when Redis did not answer (then the cache
// cannot be trusted), 0 when none is recorded yet.
std::optional<int64_t> versionOf(const std::optional<RedisReply>& reply) {
  if (!reply || reply->type == RedisReply::Type::kError) return std::nullopt;
  if (reply->type != RedisReply::Type::kString) return 0;
  int64_t version = 0;
  auto [ptr, ec] =
      std::from_chars(reply->str.data(), reply->str.data() + reply->str.size(), version);
  return ec == std::errc() ? version : 0;
}

}  // namespace

void addLinksRoutes(Routes& routes, lv1::LinksService::Stub& links, LinkCache& cache,
                    RedisClient& redis, Metrics& metrics) {
  routes.add(Method::kGet, "/v1/links/", std::string(scopes::kLinksRead),
             [&links](const ContextPtr& ctx, Respond respond) {
               lv1::ListLinksRequest request;
               *request.mutable_caller() = ctx->caller;
               *request.mutable_page() = pageRequestFrom(ctx->request);
               Query query(ctx->request.query());
               if (auto status = query.get("status")) request.set_status(*status);
               if (auto search = query.get("search")) request.set_search(*search);
               auto page = request.page();
               callBackend<lv1::ListLinksResponse>(
                   ctx, std::move(respond), std::move(request),
                   [&links](auto* c, auto* q, auto* r, auto done) {
                     links.async()->ListLinks(c, q, r, std::move(done));
                   },
                   [ctx, page](const lv1::ListLinksResponse& response) {
                     std::string results;
                     JsonWriter json(results);
                     json.beginArray();
                     for (const auto& link : response.links()) writeLink(json, link);
                     json.endArray();
                     return jsonResponse(200,
                                         renderEnvelope(*ctx, page, response.count(), results));
                   });
             });

  routes.add(Method::kPost, "/v1/links/", std::string(scopes::kLinksWrite),
             [&links](const ContextPtr& ctx, Respond respond) {
               callBackend<lv1::CreateLinkResponse>(
                   ctx, std::move(respond), createRequestFrom(*ctx),
                   [&links](auto* c, auto* q, auto* r, auto done) {
                     links.async()->CreateLink(c, q, r, std::move(done));
                   },
                   [](const lv1::CreateLinkResponse& r) { return linkResponse(201, r.link()); });
             });

  routes.add(
      Method::kGet, "/v1/links/{uuid}/", std::string(scopes::kLinksRead),
      RouteHandler(
          [&links, &cache, &redis, &metrics](const ContextPtr& ctx, Respond respond) {
            const std::string& link_uuid = ctx->params.at(0);
            const std::string& workspace_uuid = ctx->caller.workspace().uuid();
            std::optional<int64_t> version = versionOf(ctx->prefetched);
            if (!version) {
              ++metrics.link_cache_bypassed;
            } else if (*version > 0) {
              if (auto body = cache.find(link_uuid, workspace_uuid, *version)) {
                ++metrics.link_cache_hits;
                return respond(jsonResponse(200, *body));
              }
            }
            if (version) ++metrics.link_cache_misses;
            lv1::GetLinkRequest request;
            *request.mutable_caller() = ctx->caller;
            request.set_link_uuid(link_uuid);
            callBackend<lv1::GetLinkResponse>(
                ctx, std::move(respond), std::move(request),
                [&links](auto* c, auto* q, auto* r, auto done) {
                  links.async()->GetLink(c, q, r, std::move(done));
                },
                [&cache, &redis, ctx, version](const lv1::GetLinkResponse& r) {
                  auto body = std::make_shared<const std::string>(renderLink(r.link()));
                  if (version) {
                    const auto& link = r.link();
                    cache.store(link.uuid(), ctx->caller.workspace().uuid(), link.version(), body);
                    if (*version < link.version()) {
                      // Record the version so that later reads can use the cache; raising is
                      // monotonic, so a concurrent change always wins.
                      redis.command(
                          {"EVAL", std::string(linkversion::kRaiseScript), "1",
                           linkversion::redisKey(link.uuid()), std::to_string(link.version()),
                           std::to_string(linkversion::kTtlSeconds)},
                          [](std::optional<RedisReply>) {});
                    }
                  }
                  return jsonResponse(200, *body);
                });
          },
          [](const std::vector<std::string>& params) {
            return linkversion::redisKey(params.at(0));
          }));

  routes.add(Method::kPatch, "/v1/links/{uuid}/", std::string(scopes::kLinksWrite),
             [&links](const ContextPtr& ctx, Respond respond) {
               callBackend<lv1::UpdateLinkResponse>(
                   ctx, std::move(respond), updateRequestFrom(*ctx),
                   [&links](auto* c, auto* q, auto* r, auto done) {
                     links.async()->UpdateLink(c, q, r, std::move(done));
                   },
                   [](const lv1::UpdateLinkResponse& r) { return linkResponse(200, r.link()); });
             });

  routes.add(Method::kDelete, "/v1/links/{uuid}/", std::string(scopes::kLinksWrite),
             [&links](const ContextPtr& ctx, Respond respond) {
               lv1::DeleteLinkRequest request;
               *request.mutable_caller() = ctx->caller;
               request.set_link_uuid(ctx->params.at(0));
               callBackend<lv1::DeleteLinkResponse>(
                   ctx, std::move(respond), std::move(request),
                   [&links](auto* c, auto* q, auto* r, auto done) {
                     links.async()->DeleteLink(c, q, r, std::move(done));
                   },
                   [](const lv1::DeleteLinkResponse&) { return messageResponse("Link deleted."); });
             });
}

}  // namespace feedback::gateway
