#pragma once
// One-call submissions (POST /i/{slug}/submit/) on their way to the responses service, sent
// together when they arrive together (CreateCompletedResponses): a submission goes at once
// while fewer than `max_calls` calls are under way; otherwise it waits for the first of them
// to end, and the next call carries every submission waiting then (at most `max_batch`).
// Under load a call carries many, so that they share gRPC's cost per call, as a database's
// group commit shares a flush, and a link they answer travels once per call; a lone
// submission never waits. Each is answered on its own.

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include <grpcpp/grpcpp.h>

#include "feedback/responses/v1/responses.pb.h"
#include "services/gateway/routes/intake_links.h"

namespace feedback::gateway {

class SubmissionBatcher {
 public:
  using Deadline = std::chrono::system_clock::time_point;
  // A submission's outcome: the stored response, or the error that refused it.
  using Done = std::function<void(const feedback::responses::v1::CompletedResponseResult&)>;
  using Answered = std::function<void(
      grpc::Status, const feedback::responses::v1::CreateCompletedResponsesResponse&)>;
  // Makes one call under `deadline`, naming the requests `request_ids`; `answered` runs once,
  // on any thread.
  using Call = std::function<void(feedback::responses::v1::CreateCompletedResponsesRequest,
                                  Deadline deadline, std::string request_ids, Answered answered)>;

  SubmissionBatcher(Call call, int max_calls, std::size_t max_batch = 64);
  // Calls to the responses service on `responses`.
  static Call callsTo(std::shared_ptr<grpc::Channel> responses);

  // `submission` answers `form`'s link (its link_index is set here). `done` runs once, on any
  // thread, when the submission is stored or refused.
  void submit(std::shared_ptr<const IntakeForm> form,
              feedback::responses::v1::CompletedSubmission submission, Deadline deadline,
              std::string request_id, Done done);

 private:
  struct Waiting {
    std::shared_ptr<const IntakeForm> form;
    feedback::responses::v1::CompletedSubmission submission;
    Deadline deadline;
    std::string request_id;
    Done done;
  };
  using Batch = std::vector<Waiting>;
  // The next batch from queue_ when a call may start; the caller holds mutex_.
  Batch takeBatch();
  void send(Batch batch);
  void answer(Batch& batch, const grpc::Status& status,
              const feedback::responses::v1::CreateCompletedResponsesResponse& response);

  const Call call_;
  const int max_calls_;
  const std::size_t max_batch_;
  std::mutex mutex_;
  std::deque<Waiting> queue_;
  int calls_ = 0;  // under way
};

}  // namespace feedback::gateway
