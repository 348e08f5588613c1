// /v1/links/: feedback links and their questions (links service), with response_count.
#include <algorithm>

#include "common/core/json_text.h"
#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "feedback/links/v1/links.grpc.pb.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/query.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/routes/backend_call.h"
#include "services/gateway/routes/link_json.h"
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
  if (const auto* o = f.object("configuration", ErrorCode::kInvalidConfiguration)) {
    out.set_configuration_json(jsonText(*o));
  }
  if (const auto* o = f.object("condition", ErrorCode::kInvalidCondition)) {
    out.set_condition_json(jsonText(*o));
  }
  if (auto v = f.boolean("enable_dynamic_probing")) out.set_enable_dynamic_probing(*v);
  if (auto v = f.boolean("fallback_to_text")) out.set_fallback_to_text(*v);
  if (const auto* o = f.object("evaluator_config")) out.set_evaluator_config_json(jsonText(*o));
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

// Answers with `link` once its response_count is known.
void respondWithCount(const ContextPtr& ctx, Respond respond, ResponseCounts& counts, int status,
                      lv1::Link link) {
  auto shared = std::make_shared<lv1::Link>(std::move(link));
  counts.fetch(
      ctx, {shared->uuid()},
      [shared, status, respond](ResponseCounts::Counts found) {
        shared->set_response_count(found[shared->uuid()]);
        respond(jsonResponse(status, renderLink(*shared)));
      },
      answerError(ctx, respond));
}

}  // namespace

void addLinksRoutes(Routes& routes, const Backends& backends, LinkDocuments& documents,
                    ResponseCounts& counts) {
  std::shared_ptr<lv1::LinksService::Stub> links = lv1::LinksService::NewStub(backends.links);

  routes.add(
      Method::kGet, "/v1/links/",
      {withKey(scopes::kLinksRead), [links, &counts](const ContextPtr& ctx, Respond respond) {
         lv1::ListLinksRequest request;
         *request.mutable_caller() = ctx->caller;
         *request.mutable_page() = pageRequestFrom(ctx->request);
         Query query(ctx->request.query());
         if (auto status = query.get("status")) request.set_status(*status);
         if (auto search = query.get("search")) request.set_search(*search);
         auto page = request.page();
         callAsync<lv1::ListLinksResponse>(
             ctx, std::move(request),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->ListLinks(c, q, r, std::move(done));
             },
             [ctx, page, respond, &counts](const lv1::ListLinksResponse& response) {
               auto listed = std::make_shared<lv1::ListLinksResponse>(response);
               std::vector<std::string> uuids;
               for (const auto& link : listed->links()) uuids.push_back(link.uuid());
               counts.fetch(
                   ctx, std::move(uuids),
                   [ctx, page, respond, listed](ResponseCounts::Counts found) {
                     std::string results;
                     JsonWriter json(results);
                     json.beginArray();
                     for (auto& link : *listed->mutable_links()) {
                       link.set_response_count(found[link.uuid()]);
                       writeLink(json, link);
                     }
                     json.endArray();
                     respond(
                         jsonResponse(200, renderEnvelope(*ctx, page, listed->count(), results)));
                   },
                   answerError(ctx, respond));
             },
             answerError(ctx, respond));
       }});

  routes.add(Method::kPost, "/v1/links/",
             {withKey(scopes::kLinksWrite, true), [links](const ContextPtr& ctx, Respond respond) {
                callBackend<lv1::CreateLinkResponse>(
                    ctx, std::move(respond), createRequestFrom(*ctx),
                    [links](auto* c, auto* q, auto* r, auto done) {
                      links->async()->CreateLink(c, q, r, std::move(done));
                    },
                    // A new link has no responses.
                    [](const lv1::CreateLinkResponse& r) {
                      return jsonResponse(201, renderLink(r.link()));
                    });
              }});

  routes.add(Method::kGet, "/v1/links/{uuid}/",
             {withKey(scopes::kLinksRead),
              [&documents](const ContextPtr& ctx, Respond respond) {
                documents.serve(ctx, ctx->params.at(0), ctx->prefetchedAt(0), std::move(respond));
              },
              [](const RequestContext& ctx) { return LinkDocuments::prefetch(ctx.params.at(0)); }});

  routes.add(
      Method::kPatch, "/v1/links/{uuid}/",
      {withKey(scopes::kLinksWrite), [links, &counts](const ContextPtr& ctx, Respond respond) {
         callAsync<lv1::UpdateLinkResponse>(
             ctx, updateRequestFrom(*ctx),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->UpdateLink(c, q, r, std::move(done));
             },
             [ctx, respond, &counts](const lv1::UpdateLinkResponse& r) {
               respondWithCount(ctx, respond, counts, 200, r.link());
             },
             answerError(ctx, respond));
       }});

  routes.add(
      Method::kDelete, "/v1/links/{uuid}/",
      {withKey(scopes::kLinksWrite), [links](const ContextPtr& ctx, Respond respond) {
         lv1::DeleteLinkRequest request;
         *request.mutable_caller() = ctx->caller;
         request.set_link_uuid(ctx->params.at(0));
         callBackend<lv1::DeleteLinkResponse>(
             ctx, std::move(respond), std::move(request),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->DeleteLink(c, q, r, std::move(done));
             },
             [](const lv1::DeleteLinkResponse&) { return messageResponse("Link deleted."); });
       }});
}

}  // namespace feedback::gateway
