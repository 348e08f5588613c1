#include "services/responses/export/export_grpc.h"

#include <condition_variable>
#include <mutex>

#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "common/service/call_meter.h"
#include "common/service/pool_reactor.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

// One export: the worker writes chunks (send) and ends the call (end); gRPC reports each
// write's completion and the client's leaving. Deleted once the call is done, which happens
// only after end(), the worker's last use of it.
class ExportStream final : public grpc::ServerWriteReactor<v1::ExportResponsesResponse> {
 public:
  ExportStream(grpc::CallbackServerContext* context, Counters& counters)
      : meter_(context, counters, "ExportResponses") {}

  const std::string& requestId() const { return meter_.requestId(); }
  const std::string& traceId() const { return meter_.traceId(); }

  // Writes `bytes` once the previous chunk is sent; false when the client left.
  bool send(std::string& bytes) {
    std::unique_lock lock(mutex_);
    settled_.wait(lock, [this] { return !writing_ || cancelled_; });
    if (cancelled_) return false;
    chunk_.set_data(std::move(bytes));
    writing_ = true;
    lock.unlock();
    StartWrite(&chunk_);
    return true;
  }

  // Whether the client left (or the call broke): nothing more will be sent.
  bool cancelled() {
    std::lock_guard lock(mutex_);
    return cancelled_;
  }

  // Ends the call with `status` once the last chunk is sent (or given up).
  void end(const grpc::Status& status) {
    std::unique_lock lock(mutex_);
    settled_.wait(lock, [this] { return !writing_; });
    const grpc::Status ended = cancelled_ && status.ok()
                                   ? grpc::Status(grpc::StatusCode::CANCELLED, "client left")
                                   : status;
    lock.unlock();
    meter_.record(ended);
    Finish(ended);
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard lock(mutex_);
    writing_ = false;
    if (!ok) cancelled_ = true;  // the call is broken or cancelled: nothing more is sent
    settled_.notify_all();
  }

  void OnCancel() override {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    settled_.notify_all();
  }

  void OnDone() override { delete this; }

 private:
  service::CallMeter meter_;
  std::mutex mutex_;
  std::condition_variable settled_;
  bool writing_ = false;
  bool cancelled_ = false;
  v1::ExportResponsesResponse chunk_;
};

}  // namespace

grpc::ServerWriteReactor<v1::ExportResponsesResponse>* ExportGrpc::ExportResponses(
    grpc::CallbackServerContext* context, const v1::ExportResponsesRequest* request) {
  auto* stream = new ExportStream(context, counters_);
  std::optional<ExportPlan> plan;
  grpc::Status refused =
      grpckit::guarded([&] { plan.emplace(rules_.plan(*request)); }, stream->requestId());
  if (!refused.ok()) {
    stream->end(refused);
    return stream;
  }
  const bool queued = pool_.trySubmit([this, stream, plan = std::move(*plan)](PgSession& session) {
    log::TraceScope traced(stream->traceId());
    stream->end(grpckit::guarded(
        [&] {
          service::runOnSession(
              session,
              [&](PgSession& s) {
                PgResponsesStore store(s.connection());
                rules_.write(store, plan,
                             [stream](std::string& chunk) { return stream->send(chunk); });
              },
              stream->requestId());
        },
        stream->requestId()));
  });
  if (!queued) {
    stream->end(grpckit::toStatus(
        ApiError(ErrorCode::kServiceUnavailable, "Every export worker is busy: try again soon.")));
  }
  return stream;
}

}  // namespace feedback::responses
