#include "services/responses/responses_grpc.h"

#include <atomic>
#include <optional>

#include "common/grpc/grpc_kit.h"
#include "common/service/pool_reactor.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

// Runs `accept` (the rules: errors are answered at once), hands the accepted response to
// `writer` and answers with *out once it is stored.
// OK for no error; otherwise the error as a status (logged when unexpected).
grpc::Status statusOf(const std::exception_ptr& error, const std::string& request_id) {
  if (!error) return grpc::Status::OK;
  return grpckit::guarded([&] { std::rethrow_exception(error); }, request_id);
}

template <class Answer, class Accept>
grpc::ServerUnaryReactor* answerWhenStored(const service::UnaryCall& call, ResponseWriter& writer,
                                           Answer* out, Accept accept) {
  std::optional<Accepted<Answer>> accepted;
  grpc::Status status = grpckit::guarded([&] { accepted.emplace(accept()); }, call.requestId());
  if (!status.ok()) {
    call.finish(status);
    return call.reactor();
  }
  writer.write(std::move(accepted->write),
               [call, out, answer = std::move(accepted->answer)](std::exception_ptr error) mutable {
                 if (!error) *out = std::move(answer);
                 call.finish(statusOf(error, call.requestId()));
               });
  return call.reactor();
}

}  // namespace

grpc::ServerUnaryReactor* ResponsesGrpc::StartResponse(grpc::CallbackServerContext* c,
                                                       const v1::StartResponseRequest* q,
                                                       v1::StartResponseResponse* r) {
  return answerWhenStored(service::UnaryCall(c, counters_, "StartResponse"), writer_, r,
                          [&] { return service_.startResponse(*q); });
}

grpc::ServerUnaryReactor* ResponsesGrpc::SaveAnswer(grpc::CallbackServerContext* c,
                                                    const v1::SaveAnswerRequest* q,
                                                    v1::SaveAnswerResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "SaveAnswer", service_,
                                               &ResponsesService::saveAnswer, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::AnswerFollowUp(grpc::CallbackServerContext* c,
                                                        const v1::AnswerFollowUpRequest* q,
                                                        v1::AnswerFollowUpResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "AnswerFollowUp", service_,
                                               &ResponsesService::answerFollowUp, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::SubmitResponse(grpc::CallbackServerContext* c,
                                                        const v1::SubmitResponseRequest* q,
                                                        v1::SubmitResponseResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "SubmitResponse", service_,
                                               &ResponsesService::submitResponse, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::CreateCompletedResponses(
    grpc::CallbackServerContext* c, const v1::CreateCompletedResponsesRequest* q,
    v1::CreateCompletedResponsesResponse* r) {
  service::UnaryCall call(c, counters_, "CreateCompletedResponses");
  const int count = q->submissions_size();
  if (count == 0) {
    call.finish(grpc::Status::OK);
    return call.reactor();
  }
  // Every result exists before any write can finish: writers fill their own, on any thread.
  for (int i = 0; i < count; ++i) r->add_results();
  // The call is answered when the last submission is stored or refused; `q` lives until then.
  auto unsettled = std::make_shared<std::atomic<int>>(count);
  auto settle = [this, call, unsettled](v1::CompletedResponseResult* result,
                                        const grpc::Status& status) {
    counters_.increment("completed_submissions_total{code=\"" +
                        std::string(grpckit::statusName(status.error_code())) + "\"}");
    if (!status.ok()) *result->mutable_error() = grpckit::toRpcStatus(status);
    if (unsettled->fetch_sub(1, std::memory_order_acq_rel) == 1) call.finish(grpc::Status::OK);
  };
  for (int i = 0; i < count; ++i) {
    auto* result = r->mutable_results(i);
    const auto& submission = q->submissions(i);
    std::optional<Accepted<std::string>> accepted;
    grpc::Status refused = grpckit::guarded(
        [&] {
          if (submission.link_index() < 0 || submission.link_index() >= q->links_size()) {
            throw ApiError(ErrorCode::kValidationError, "A submission names no link of the call.",
                           {{"link_index", "out of range"}});
          }
          accepted.emplace(
              service_.createCompletedResponse(q->links(submission.link_index()), submission));
        },
        submission.request_id());
    if (!refused.ok()) {
      settle(result, refused);
      continue;
    }
    writer_.write(std::move(accepted->write),
                  [settle, result, id = &submission.request_id(),
                   answer = std::move(accepted->answer)](std::exception_ptr error) mutable {
                    if (!error) result->set_record_json(std::move(answer));
                    settle(result, statusOf(error, *id));
                  });
  }
  return call.reactor();
}

grpc::ServerUnaryReactor* ResponsesGrpc::ListResponses(grpc::CallbackServerContext* c,
                                                       const v1::ListResponsesRequest* q,
                                                       v1::ListResponsesResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "ListResponses", service_,
                                               &ResponsesService::listResponses, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::GetResponse(grpc::CallbackServerContext* c,
                                                     const v1::GetResponseRequest* q,
                                                     v1::GetResponseResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "GetResponse", service_,
                                               &ResponsesService::getResponse, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::CountResponses(grpc::CallbackServerContext* c,
                                                        const v1::CountResponsesRequest* q,
                                                        v1::CountResponsesResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "CountResponses", service_,
                                               &ResponsesService::countResponses, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::GetLinkSummary(grpc::CallbackServerContext* c,
                                                        const v1::GetLinkSummaryRequest* q,
                                                        v1::GetLinkSummaryResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "GetLinkSummary", service_,
                                               &ResponsesService::linkSummary, q, r);
}

}  // namespace feedback::responses
