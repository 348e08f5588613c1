// /i/{slug}/...: the public intake (responses service). No API key: the workspace comes from
// the Host header, a response is protected by the token its start returned.
#include "common/api/response_json.h"
#include "common/core/json_text.h"
#include "common/core/json_writer.h"
#include "feedback/responses/v1/responses.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/backends/submission_batcher.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;
using api::renderAnswer;
using api::renderResponse;
using Stub = std::shared_ptr<rv1::ResponsesService::Stub>;
using FormPtr = std::shared_ptr<const IntakeForm>;

void setLink(rv1::IntakeLink& out, const IntakeForm& form, const RequestContext& ctx) {
  out.set_workspace_uuid(form.workspace_uuid);
  out.set_workspace_host(ctx.caller->workspace().host());
  *out.mutable_link() = form.link;
}

// The response token. Routes on a response declare that they need it, so the credentials
// stage has already answered a call without one (404).
std::string responseToken(const RequestContext& ctx) {
  return std::string(ctx.request.header("x-response-token"));
}

std::optional<std::string> email(const JsonFields& fields) {
  return fields.text("respondent_email");
}

// {field_key: value} into the request's answers.
template <class Request>
void readAnswers(const boost::json::object* answers, Request& request) {
  if (!answers) return;
  for (const auto& [key, value] : *answers) {
    auto* input = request.add_answers();
    input->set_field_key(std::string(key));
    if (!value.is_null()) input->set_value_json(jsonText(value));
  }
}

HttpResponse recordResponse(int status, const rv1::Response& response) {
  return jsonResponse(status, renderResponse(response));
}

// POST /i/{slug}/responses/: a start.
void startResponse(const Stub& responses, const ContextPtr& ctx, Respond respond, FormPtr form) {
  JsonFields body(ctx->body, "", {"respondent_email"});
  rv1::StartResponseRequest request;
  setLink(*request.mutable_link(), *form, *ctx);
  if (auto e = email(body)) request.set_respondent_email(*e);
  callBackend<rv1::StartResponseResponse>(
      ctx, std::move(respond), std::move(request),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->StartResponse(c, q, r, std::move(done));
      },
      [](const rv1::StartResponseResponse& r) {
        std::string out;
        JsonWriter(out)
            .beginObject()
            .field("uuid", r.uuid())
            .field("session_id", r.session_id())
            .field("token", r.token())
            .endObject();
        return jsonResponse(201, std::move(out));
      });
}

// A call on one answer of a started response: its body {value} (required; `nullable`: null
// clears the answer) into the request.
template <class Request>
Request answerRequest(const ContextPtr& ctx, const IntakeForm& form, bool nullable) {
  JsonFields body(ctx->body, "", {"value"});
  const auto* value = ctx->body.if_contains("value");
  if (!value) {
    throw ApiError(ErrorCode::kValidationError,
                   nullable ? "'value' is required (null clears it)." : "'value' is required.",
                   {{"value", "is required"}});
  }
  Request request;
  setLink(*request.mutable_link(), form, *ctx);
  request.set_response_uuid(ctx->params.at(1));
  request.set_token(responseToken(*ctx));
  request.mutable_answer()->set_field_key(ctx->params.at(2));
  if (!value->is_null()) request.mutable_answer()->set_value_json(jsonText(*value));
  return request;
}

// PUT /i/{slug}/responses/{uuid}/answers/{field_key}/
void saveAnswer(const Stub& responses, const ContextPtr& ctx, Respond respond, FormPtr form) {
  callBackend<rv1::SaveAnswerResponse>(
      ctx, std::move(respond), answerRequest<rv1::SaveAnswerRequest>(ctx, *form, true),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->SaveAnswer(c, q, r, std::move(done));
      },
      [](const rv1::SaveAnswerResponse& r) { return jsonResponse(200, renderAnswer(r.answer())); });
}

// POST /i/{slug}/responses/{uuid}/answers/{field_key}/follow_ups/
void answerFollowUp(const Stub& responses, const ContextPtr& ctx, Respond respond, FormPtr form) {
  callBackend<rv1::AnswerFollowUpResponse>(
      ctx, std::move(respond), answerRequest<rv1::AnswerFollowUpRequest>(ctx, *form, false),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->AnswerFollowUp(c, q, r, std::move(done));
      },
      [](const rv1::AnswerFollowUpResponse& r) {
        return jsonResponse(200, renderAnswer(r.answer()));
      });
}

// POST /i/{slug}/responses/{uuid}/submit/
void submitResponse(const Stub& responses, const ContextPtr& ctx, Respond respond, FormPtr form) {
  JsonFields body(ctx->body, "", {"answers"});
  rv1::SubmitResponseRequest request;
  setLink(*request.mutable_link(), *form, *ctx);
  request.set_response_uuid(ctx->params.at(1));
  request.set_token(responseToken(*ctx));
  readAnswers(body.object("answers"), request);
  callBackend<rv1::SubmitResponseResponse>(
      ctx, std::move(respond), std::move(request),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->SubmitResponse(c, q, r, std::move(done));
      },
      [](const rv1::SubmitResponseResponse& r) { return recordResponse(200, r.response()); });
}

// POST /i/{slug}/submit/: a response in one call, sent with those arriving meanwhile.
void submitInOneCall(SubmissionBatcher& submissions, const ContextPtr& ctx, Respond respond,
                     FormPtr form) {
  JsonFields body(ctx->body, "", {"respondent_email", "answers"});
  // Unlike a started response's submit, the one call carries every answer.
  if (!body.has("answers")) {
    throw ApiError(ErrorCode::kValidationError, "'answers' is required.",
                   {{"answers", "is required"}});
  }
  rv1::CompletedSubmission submission;
  if (auto e = email(body)) submission.set_respondent_email(*e);
  readAnswers(body.object("answers"), submission);
  submission.set_request_id(ctx->request_id);
  submissions.submit(
      std::move(form), std::move(submission), ctx->deadline,
      [ctx, respond](const rv1::CompletedResponseResult& result) {
        if (result.has_record_json()) {
          return respond(jsonResponse(201, result.record_json()));
        }
        respond(errorResponse(grpckit::fromStatus(grpckit::fromRpcStatus(result.error())),
                              ctx->request_id));
      });
}

}  // namespace

void addIntakeRoutes(Routes& routes, const Backends& backends, IntakeLinks& links,
                     SubmissionBatcher& submissions) {
  Stub responses = rv1::ResponsesService::NewStub(backends.responses);
  // A handler of the responses service's calls.
  auto calling = [responses](auto handler) {
    return [responses, handler](const ContextPtr& ctx, Respond respond, FormPtr form) {
      handler(responses, ctx, std::move(respond), std::move(form));
    };
  };
  routes.add(
      Method::kGet, "/i/{slug}/form/",
      intakeRoute(
          links, RouteAttributes{.access = Access::kPublic, .rpcs = {"LinksService/GetLinkBySlug"}},
          [](const ContextPtr&, Respond respond, FormPtr form) {
            respond(jsonResponse(200, form->form_json));
          }));
  routes.add(Method::kPost, "/i/{slug}/responses/",
             intakeRoute(links,
                         RouteAttributes{.access = Access::kPublic,
                                         .idempotent = true,
                                         .rpcs = {"ResponsesService/StartResponse",
                                                  "LinksService/GetLinkBySlug"}},
                         calling(startResponse)));
  routes.add(Method::kPut, "/i/{slug}/responses/{uuid}/answers/{field_key}/",
             intakeRoute(links,
                         RouteAttributes{
                             .access = Access::kPublic,
                             .response_token = true,
                             .signs_media = true,
                             .rpcs = {"ResponsesService/SaveAnswer", "LinksService/GetLinkBySlug"}},
                         calling(saveAnswer)));
  routes.add(Method::kPost, "/i/{slug}/responses/{uuid}/answers/{field_key}/follow_ups/",
             intakeRoute(links,
                         RouteAttributes{.access = Access::kPublic,
                                         .idempotent = true,
                                         .response_token = true,
                                         .signs_media = true,
                                         .rpcs = {"ResponsesService/AnswerFollowUp",
                                                  "LinksService/GetLinkBySlug"}},
                         calling(answerFollowUp)));
  routes.add(Method::kPost, "/i/{slug}/responses/{uuid}/submit/",
             intakeRoute(links,
                         RouteAttributes{.access = Access::kPublic,
                                         .idempotent = true,
                                         .response_token = true,
                                         .signs_media = true,
                                         .rpcs = {"ResponsesService/SubmitResponse",
                                                  "LinksService/GetLinkBySlug"}},
                         calling(submitResponse)));
  routes.add(Method::kPost, "/i/{slug}/submit/",
             intakeRoute(links,
                         RouteAttributes{.access = Access::kPublic,
                                         .idempotent = true,
                                         .rpcs = {"ResponsesService/CreateCompletedResponses",
                                                  "LinksService/GetLinkBySlug"}},
                         [&submissions](const ContextPtr& ctx, Respond respond, FormPtr form) {
                           submitInOneCall(submissions, ctx, std::move(respond), std::move(form));
                         }));
}

}  // namespace feedback::gateway
