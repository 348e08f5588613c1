#include "services/gateway/backends/submission_batcher.h"

#include <algorithm>

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "feedback/responses/v1/responses.grpc.pb.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;

rv1::CompletedResponseResult failure(const ApiError& error) {
  rv1::CompletedResponseResult out;
  *out.mutable_error() = grpckit::toRpcStatus(grpckit::toStatus(error));
  return out;
}

// Each submission its result: its own from `response`, or the call's failure.
void answer(std::vector<SubmissionBatcher::Done>& whom, const grpc::Status& status,
            const rv1::CreateCompletedResponsesResponse& response) {
  rv1::CompletedResponseResult failed;
  if (!status.ok()) {
    *failed.mutable_error() = grpckit::toRpcStatus(status);
  } else if (response.results_size() != static_cast<int>(whom.size())) {
    log::error("submission_results_mismatch",
               {{"sent", whom.size()}, {"answered", response.results_size()}});
    failed = failure(ApiError(ErrorCode::kInternalError));
  }
  const bool each = status.ok() && !failed.has_error();
  for (std::size_t i = 0; i < whom.size(); ++i) {
    whom[i](each ? response.results(static_cast<int>(i)) : failed);
  }
}

}  // namespace

SubmissionBatcher::SubmissionBatcher(Call call, SubmissionLimits limits)
    : call_(std::move(call)), limits_(limits) {}

SubmissionBatcher::Call SubmissionBatcher::callsTo(std::shared_ptr<grpc::Channel> responses) {
  std::shared_ptr<rv1::ResponsesService::Stub> stub = rv1::ResponsesService::NewStub(responses);
  return
      [stub](rv1::CreateCompletedResponsesRequest request, Deadline deadline, Answered answered) {
        struct Exchange {
          grpc::ClientContext client;
          rv1::CreateCompletedResponsesRequest request;
          rv1::CreateCompletedResponsesResponse response;
        };
        auto exchange = std::make_shared<Exchange>();
        exchange->request = std::move(request);
        exchange->client.set_deadline(deadline);
        stub->async()->CreateCompletedResponses(
            &exchange->client, &exchange->request, &exchange->response,
            [exchange, answered = std::move(answered)](grpc::Status status) {
              answered(status, exchange->response);
            });
      };
}

void SubmissionBatcher::submit(std::shared_ptr<const IntakeForm> form,
                               rv1::CompletedSubmission submission, Deadline deadline, Done done) {
  const std::size_t bytes = submission.ByteSizeLong();
  Taken taken;
  bool queued = false;
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() < limits_.max_waiting) {
      queue_.push_back({std::move(form), std::move(submission), bytes, deadline, std::move(done)});
      queued = true;
      taken = take();
    }
  }
  if (!queued) {  // refused at once, as a service's full queue would
    done(failure(ApiError(ErrorCode::kServiceUnavailable, "Too many submissions are waiting.")));
    return;
  }
  start(std::move(taken));
}

SubmissionBatcher::Taken SubmissionBatcher::take() {
  Taken taken;
  const auto now = std::chrono::system_clock::now();
  while (!queue_.empty() && queue_.front().deadline <= now) {
    taken.expired.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  if (calls_ >= limits_.max_calls || queue_.empty()) return taken;
  std::size_t bytes = 0;
  std::vector<const IntakeForm*> forms;
  while (!queue_.empty() && taken.batch.size() < limits_.max_batch) {
    Waiting& next = queue_.front();
    std::size_t adds = next.bytes;
    if (std::find(forms.begin(), forms.end(), next.form.get()) == forms.end()) {
      adds += next.form->link.ByteSizeLong();
    }
    if (!taken.batch.empty() && bytes + adds > limits_.max_bytes) break;
    if (adds > next.bytes) forms.push_back(next.form.get());
    bytes += adds;
    taken.batch.push_back(std::move(next));
    queue_.pop_front();
  }
  ++calls_;
  return taken;
}

void SubmissionBatcher::start(Taken taken) {
  for (auto& waiting : taken.expired) {
    waiting.done(
        failure(ApiError(ErrorCode::kServiceUnavailable, "The submission waited too long.")));
  }
  if (!taken.batch.empty()) send(std::move(taken.batch));
}

void SubmissionBatcher::send(Batch batch) {
  rv1::CreateCompletedResponsesRequest request;
  request.mutable_submissions()->Reserve(static_cast<int>(batch.size()));
  Deadline deadline = Deadline::max();
  // The forms of a call: few, usually one (a campaign's link).
  std::vector<const IntakeForm*> forms;
  auto whom = std::make_shared<std::vector<Done>>();
  whom->reserve(batch.size());
  for (auto& waiting : batch) {
    auto known = std::find(forms.begin(), forms.end(), waiting.form.get());
    if (known == forms.end()) {
      auto* link = request.add_links();
      link->set_workspace_uuid(waiting.form->workspace_uuid);
      *link->mutable_link() = waiting.form->link;
      known = forms.insert(forms.end(), waiting.form.get());
    }
    waiting.submission.set_link_index(static_cast<int>(known - forms.begin()));
    // Moved out: the call owns the submissions.
    *request.add_submissions() = std::move(waiting.submission);
    deadline = std::min(deadline, waiting.deadline);
    whom->push_back(std::move(waiting.done));
  }
  call_(std::move(request), deadline,
        [this, whom](grpc::Status status, const rv1::CreateCompletedResponsesResponse& response) {
          // The next call is taken before anyone is answered: once the last request is
          // answered the gateway may stop and destroy this batcher, which then must not be
          // touched again (the next batch's requests, unanswered, keep it alive).
          Taken next;
          {
            std::lock_guard lock(mutex_);
            --calls_;
            next = take();
          }
          answer(*whom, status, response);
          if (!next.batch.empty() || !next.expired.empty()) start(std::move(next));
        });
}

}  // namespace feedback::gateway
