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
#include "services/gateway/cache/intake_links.h"

namespace feedback::gateway {

struct SubmissionLimits {
  int max_calls = 4;                // calls under way at once
  std::size_t max_batch = 64;       // submissions in one call
  std::size_t max_bytes = 1 << 20;  // of submissions and links in one call (beyond the first)
  std::size_t max_waiting = 4096;   // beyond it a submission is refused at once (503)
};

class SubmissionBatcher {
 public:
  using Deadline = std::chrono::system_clock::time_point;
  // A submission's outcome: the stored response, or the error that refused it.
  using Done = std::function<void(const feedback::responses::v1::CompletedResponseResult&)>;
  using Answered = std::function<void(
      grpc::Status, const feedback::responses::v1::CreateCompletedResponsesResponse&)>;
  // Makes one call under `deadline`; `answered` runs once, on any thread.
  using Call = std::function<void(feedback::responses::v1::CreateCompletedResponsesRequest,
                                  Deadline deadline, Answered answered)>;

  SubmissionBatcher(Call call, SubmissionLimits limits);
  // Calls to the responses service on `responses`.
  static Call callsTo(std::shared_ptr<grpc::Channel> responses);

  // `submission` answers `form`'s link (its link_index is set here). `done` runs once, on any
  // thread, when the submission is stored or refused; a submission still waiting at its
  // deadline is refused (503) without being sent.
  void submit(std::shared_ptr<const IntakeForm> form,
              feedback::responses::v1::CompletedSubmission submission, Deadline deadline,
              Done done);

 private:
  struct Waiting {
    std::shared_ptr<const IntakeForm> form;
    feedback::responses::v1::CompletedSubmission submission;
    std::size_t bytes = 0;
    Deadline deadline;
    Done done;
  };
  using Batch = std::vector<Waiting>;
  struct Taken {
    Batch batch;    // to send, when a call may start
    Batch expired;  // to refuse
  };
  // From queue_; the caller holds mutex_.
  Taken take();
  // Outside mutex_: refuses `taken.expired`, sends `taken.batch`.
  void start(Taken taken);
  void send(Batch batch);

  const Call call_;
  const SubmissionLimits limits_;
  std::mutex mutex_;
  std::deque<Waiting> queue_;
  int calls_ = 0;  // under way
};

}  // namespace feedback::gateway
