#include "services/gateway/routes/media_streams.h"

#include <algorithm>

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;

// Small enough for gRPC's default message limit, large enough that a 25 MiB upload takes few.
constexpr std::size_t kUploadChunkBytes = 1024 * 1024;

class Uploader final : public grpc::ClientWriteReactor<rv1::UploadAnswerMediaRequest> {
 public:
  using Done = std::function<void(const grpc::Status&, const rv1::Answer&)>;

  Uploader(const MediaStub& stub, ContextPtr ctx, rv1::MediaUploadHeader header, Done done)
      : ctx_(std::move(ctx)), done_(std::move(done)) {
    detail::prepareCall(client_, *ctx_);
    stub->async()->UploadAnswerMedia(&client_, &response_, this);
    *message_.mutable_header() = std::move(header);
    StartWrite(&message_);
    StartCall();
  }

  void OnWriteDone(bool ok) override {
    // A failed write ends the call; OnDone tells why.
    if (!ok) return;
    const std::string& body = ctx_->request.body;
    if (sent_ >= body.size()) return StartWritesDone();
    const std::size_t n = std::min(kUploadChunkBytes, body.size() - sent_);
    message_.set_data(body.data() + sent_, n);
    sent_ += n;
    StartWrite(&message_);
  }

  void OnDone(const grpc::Status& status) override {
    done_(status, response_.answer());
    delete this;
  }

 private:
  ContextPtr ctx_;
  Done done_;
  grpc::ClientContext client_;
  rv1::UploadAnswerMediaRequest message_;
  rv1::UploadAnswerMediaResponse response_;
  std::size_t sent_ = 0;
};

}  // namespace

void detail::prepareCall(grpc::ClientContext& client, const RequestContext& ctx) {
  client.set_deadline(ctx.deadline);
  client.AddMetadata("x-request-id", ctx.request_id);
  client.AddMetadata("traceparent", trace::format(ctx.trace));
}

void uploadMedia(const MediaStub& stub, const ContextPtr& ctx, rv1::MediaUploadHeader header,
                 std::function<void(const grpc::Status&, const rv1::Answer&)> done) {
  new Uploader(stub, ctx, std::move(header), std::move(done));
}

}  // namespace feedback::gateway
