#include "services/gateway/routes/submission_batcher.h"

#include <algorithm>

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "feedback/responses/v1/responses.grpc.pb.h"

namespace feedback::gateway {

namespace rv1 = feedback::responses::v1;

SubmissionBatcher::SubmissionBatcher(Call call, int max_calls, std::size_t max_batch)
    : call_(std::move(call)), max_calls_(max_calls), max_batch_(max_batch) {}

SubmissionBatcher::Call SubmissionBatcher::callsTo(std::shared_ptr<grpc::Channel> responses) {
  std::shared_ptr<rv1::ResponsesService::Stub> stub = rv1::ResponsesService::NewStub(responses);
  return [stub](rv1::CreateCompletedResponsesRequest request, Deadline deadline,
                std::string request_ids, Answered answered) {
    struct Exchange {
      grpc::ClientContext client;
      rv1::CreateCompletedResponsesRequest request;
      rv1::CreateCompletedResponsesResponse response;
    };
    auto exchange = std::make_shared<Exchange>();
    exchange->request = std::move(request);
    exchange->client.set_deadline(deadline);
    // Lets the services' logs name the requests.
    exchange->client.AddMetadata("x-request-id", request_ids);
    stub->async()->CreateCompletedResponses(
        &exchange->client, &exchange->request, &exchange->response,
        [exchange, answered = std::move(answered)](grpc::Status status) {
          answered(status, exchange->response);
        });
  };
}

void SubmissionBatcher::submit(std::shared_ptr<const IntakeForm> form,
                               rv1::CompletedSubmission submission, Deadline deadline,
                               std::string request_id, Done done) {
  Batch batch;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(
        {std::move(form), std::move(submission), deadline, std::move(request_id), std::move(done)});
    batch = takeBatch();
  }
  if (!batch.empty()) send(std::move(batch));
}

SubmissionBatcher::Batch SubmissionBatcher::takeBatch() {
  Batch batch;
  if (calls_ >= max_calls_ || queue_.empty()) return batch;
  const std::size_t n = std::min(queue_.size(), max_batch_);
  batch.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    batch.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  ++calls_;
  return batch;
}

void SubmissionBatcher::send(Batch batch) {
  rv1::CreateCompletedResponsesRequest request;
  request.mutable_submissions()->Reserve(static_cast<int>(batch.size()));
  Deadline deadline = Deadline::max();
  std::string request_ids;
  // The forms of a call: few, usually one (a campaign's link).
  std::vector<const IntakeForm*> forms;
  for (auto& waiting : batch) {
    auto known = std::find(forms.begin(), forms.end(), waiting.form.get());
    if (known == forms.end()) {
      auto* link = request.add_links();
      link->set_workspace_uuid(waiting.form->workspace_uuid);
      *link->mutable_link() = waiting.form->link;
      known = forms.insert(forms.end(), waiting.form.get());
    }
    waiting.submission.set_link_index(static_cast<int>(known - forms.begin()));
    // Moved out: the call owns the submissions, the batch keeps whom to answer.
    *request.add_submissions() = std::move(waiting.submission);
    deadline = std::min(deadline, waiting.deadline);
    if (!request_ids.empty()) request_ids += ", ";
    request_ids += waiting.request_id;
  }
  auto shared = std::make_shared<Batch>(std::move(batch));
  call_(std::move(request), deadline, std::move(request_ids),
        [this, shared](grpc::Status status, const rv1::CreateCompletedResponsesResponse& response) {
          answer(*shared, status, response);
          Batch next;
          {
            std::lock_guard lock(mutex_);
            --calls_;
            next = takeBatch();
          }
          if (!next.empty()) send(std::move(next));
        });
}

void SubmissionBatcher::answer(Batch& batch, const grpc::Status& status,
                               const rv1::CreateCompletedResponsesResponse& response) {
  rv1::CompletedResponseResult failed;
  if (!status.ok()) {
    *failed.mutable_error() = grpckit::toRpcStatus(status);
  } else if (response.results_size() != static_cast<int>(batch.size())) {
    log::error("submission_results_mismatch",
               {{"sent", batch.size()}, {"answered", response.results_size()}});
    *failed.mutable_error() =
        grpckit::toRpcStatus(grpckit::toStatus(ApiError(ErrorCode::kInternalError)));
  }
  const bool each = status.ok() && !failed.has_error();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    batch[i].done(each ? response.results(static_cast<int>(i)) : failed);
  }
}

}  // namespace feedback::gateway
