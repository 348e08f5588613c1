#include "services/gateway/backends/media_streams.h"

#include <grpcpp/alarm.h>

#include <algorithm>
#include <mutex>

#include "services/gateway/backends/reader_body.h"

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

// A 32 MiB recording read at 64 kbit/s (a phone on a poor network).
constexpr std::chrono::hours kLongestRead{2};

// ReadMedia's answers as a BodyStream. A hold keeps the call open between reads, which
// next() starts from the server's threads; it is released once, when the last read ended
// (!ok) or when the stream is dropped with no read under way (cancel), after which OnDone
// comes. The reactor keeps itself alive until then.
class MediaStreamReader final : public grpc::ClientReadReactor<rv1::ReadMediaResponse> {
 public:
  static std::shared_ptr<MediaStreamReader> start(const MediaStub& stub, const ContextPtr& ctx,
                                                  rv1::ReadMediaRequest request,
                                                  MediaStreamDone done) {
    std::shared_ptr<MediaStreamReader> reader(new MediaStreamReader(std::move(done)));
    reader->self_ = reader;
    reader->ctx_ = ctx;
    reader->request_ = std::move(request);
    detail::prepareCall(reader->client_, *ctx);
    // The request's deadline bounds the wait for the header (the alarm); the body takes as long
    // as the client reads, each piece's write bounded by the server's write timeout, and a
    // client that leaves ends the call.
    reader->client_.set_deadline(std::chrono::system_clock::now() + kLongestRead);
    reader->header_alarm_.Set(ctx->deadline, [weak = std::weak_ptr(reader)](bool fired) {
      auto late = weak.lock();
      if (fired && late) late->headerLate();
    });
    stub->async()->ReadMedia(&reader->client_, &reader->request_, reader.get());
    reader->AddHold();
    reader->reading_ = true;
    reader->StartRead(&reader->response_);
    reader->StartCall();
    return reader;
  }

  void next(BodyStream::Got got) {
    std::unique_lock lock(mutex_);
    if (!holding_) {
      lock.unlock();
      return got(false, {});  // dropped, or ended before its body did
    }
    // All the header promised came: the call's end is read, and tells whether it was whole.
    (delivered_ == expected_ ? last_ : got_) = std::move(got);
    reading_ = true;
    lock.unlock();
    StartRead(&response_);
  }

  // With a read under way, the hold is released when it ends (OnReadDone), whatever it
  // brings: nobody asks for more once the body is dropped.
  void cancel() {
    std::unique_lock lock(mutex_);
    cancelled_ = true;
    const bool release = holding_ && !reading_;
    if (release) holding_ = false;
    lock.unlock();
    client_.TryCancel();
    if (release) RemoveHold();
  }

  void headerLate() {
    std::unique_lock lock(mutex_);
    if (!done_) return;
    header_late_ = true;
    lock.unlock();
    client_.TryCancel();
  }

  void OnReadDone(bool ok) override {
    std::unique_lock lock(mutex_);
    reading_ = false;
    if (!ok || cancelled_) {
      const bool release = holding_;
      holding_ = false;
      lock.unlock();
      if (release) RemoveHold();  // OnDone follows, with the status
      return;
    }
    auto& chunk = *response_.mutable_chunk();
    if (done_) {
      auto done = std::move(done_);
      done_ = nullptr;
      auto& header = *chunk.mutable_header();
      normalise(header);
      expected_ = header.range_length();
      lock.unlock();
      header_alarm_.Cancel();
      return done(grpc::Status::OK, std::move(header), body());
    }
    // A piece was asked for, or the end (then this piece is one too many).
    auto got = std::move(got_ ? got_ : last_);
    got_ = last_ = nullptr;
    delivered_ += static_cast<int64_t>(chunk.data().size());
    const bool too_long = delivered_ > expected_;
    lock.unlock();
    if (too_long) {
      // More than the header promised: the body cannot be right. The stream's owner drops
      // it (cancel), which releases the hold.
      client_.TryCancel();
      return got(false, {});
    }
    got(true, std::move(*chunk.mutable_data()));
  }

  void OnDone(const grpc::Status& status) override {
    std::unique_lock lock(mutex_);
    auto done = std::move(done_);
    auto got = std::move(got_);
    auto last = std::move(last_);
    done_ = nullptr;
    got_ = last_ = nullptr;
    const bool whole = status.ok() && delivered_ == expected_;
    const bool late = header_late_;
    lock.unlock();
    if (done) {
      done(late          ? grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "no header in time")
           : status.ok() ? grpc::Status(grpc::StatusCode::INTERNAL, "no header")
                         : status,
           {}, nullptr);
    }
    if (got) got(false, {});
    if (last) last(whole, {});
    ctx_.reset();   // the request counts as under way until its call has ended
    self_.reset();  // last: may end this object
  }

 private:
  explicit MediaStreamReader(MediaStreamDone done) : done_(std::move(done)) {}
  std::shared_ptr<BodyStream> body();

  // A service from before ranges (a rollout's older replica) sends the whole content.
  static void normalise(rv1::MediaHeader& header) {
    if (header.range_resolved()) return;
    header.set_partial(false);
    header.set_unsatisfiable(false);
    header.set_range_first(0);
    header.set_range_length(header.size_bytes());
    header.set_range_resolved(true);
  }

  std::mutex mutex_;
  MediaStreamDone done_;    // until the header came
  BodyStream::Got got_;     // a piece asked for
  BodyStream::Got last_;    // the end asked for
  bool holding_ = true;     // the hold is not released yet
  bool reading_ = false;    // a read is under way
  bool cancelled_ = false;  // the stream was dropped
  bool header_late_ = false;
  grpc::Alarm header_alarm_;
  int64_t expected_ = 0, delivered_ = 0;
  grpc::ClientContext client_;
  rv1::ReadMediaRequest request_;
  rv1::ReadMediaResponse response_;
  ContextPtr ctx_;
  std::shared_ptr<MediaStreamReader> self_;
};

std::shared_ptr<BodyStream> MediaStreamReader::body() {
  return std::make_shared<ReaderBody<MediaStreamReader>>(self_);
}

}  // namespace

void streamMedia(const MediaStub& stub, const ContextPtr& ctx, rv1::ReadMediaRequest request,
                 MediaStreamDone done) {
  MediaStreamReader::start(stub, ctx, std::move(request), std::move(done));
}

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
