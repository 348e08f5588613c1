#include "services/gateway/backends/export_stream.h"

#include <mutex>

#include "services/gateway/backends/media_streams.h"
#include "services/gateway/backends/reader_body.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;

// The longest an export may take: a million responses read by a slow client.
constexpr std::chrono::hours kLongestExport{2};

// ExportResponses' chunks as a BodyStream. A hold keeps the call open between reads, which
// next() starts from the server's threads; it is released once, when the last read ended
// (!ok) or when the stream is dropped with no read under way, after which OnDone comes. The
// reactor keeps itself alive until then.
class ExportReader final : public grpc::ClientReadReactor<rv1::ExportResponsesResponse> {
 public:
  static void start(const ExportStub& stub, const ContextPtr& ctx,
                    rv1::ExportResponsesRequest request, ExportStreamDone done) {
    std::shared_ptr<ExportReader> reader(new ExportReader(std::move(done)));
    reader->self_ = reader;
    reader->ctx_ = ctx;
    reader->request_ = std::move(request);
    detail::prepareCall(reader->client_, *ctx);
    reader->client_.set_deadline(std::chrono::system_clock::now() + kLongestExport);
    stub->async()->ExportResponses(&reader->client_, &reader->request_, reader.get());
    reader->AddHold();
    reader->reading_ = true;
    reader->StartRead(&reader->chunk_);
    reader->StartCall();
  }

  void next(BodyStream::Got got) {
    std::unique_lock lock(mutex_);
    if (!first_.empty()) {
      std::string first = std::move(first_);
      first_.clear();
      lock.unlock();
      return got(true, std::move(first));
    }
    if (ended_) {
      const bool whole = ended_ok_;
      lock.unlock();
      return got(whole, {});
    }
    if (!holding_) {
      lock.unlock();
      return got(false, {});  // dropped
    }
    got_ = std::move(got);
    reading_ = true;
    lock.unlock();
    StartRead(&chunk_);
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

  void OnReadDone(bool ok) override {
    std::unique_lock lock(mutex_);
    reading_ = false;
    if (!ok || cancelled_) {
      // The end or a failure (OnDone answers the piece asked for), or a read that ended after
      // the body was dropped (nobody waits for it): OnDone follows.
      if (cancelled_) got_ = nullptr;
      const bool release = holding_;
      holding_ = false;
      lock.unlock();
      if (release) RemoveHold();
      return;
    }
    std::string data = std::move(*chunk_.mutable_data());
    if (data.empty()) {  // nothing to send: read on
      reading_ = true;
      lock.unlock();
      return StartRead(&chunk_);
    }
    if (done_) {
      auto done = std::move(done_);
      done_ = nullptr;
      first_ = std::move(data);
      lock.unlock();
      return done(grpc::Status::OK, body());
    }
    auto got = std::move(got_);
    got_ = nullptr;
    lock.unlock();
    if (got) got(true, std::move(data));
  }

  void OnDone(const grpc::Status& status) override {
    std::unique_lock lock(mutex_);
    auto done = std::move(done_);
    auto got = std::move(got_);
    done_ = nullptr;
    got_ = nullptr;
    ended_ = true;
    ended_ok_ = status.ok();
    lock.unlock();
    // No chunk at all: an empty file, or a failure before any.
    if (done) done(status, status.ok() ? body() : nullptr);
    if (got) got(status.ok(), {});
    ctx_.reset();   // the request counts as under way until its call has ended
    self_.reset();  // last: may end this object
  }

 private:
  explicit ExportReader(ExportStreamDone done) : done_(std::move(done)) {}
  std::shared_ptr<BodyStream> body();

  std::mutex mutex_;
  ExportStreamDone done_;  // until the first chunk came
  BodyStream::Got got_;    // a chunk asked for
  std::string first_;      // the first chunk, until the body asks for it
  bool holding_ = true;
  bool reading_ = false;
  bool cancelled_ = false;
  bool ended_ = false, ended_ok_ = false;
  grpc::ClientContext client_;
  rv1::ExportResponsesRequest request_;
  rv1::ExportResponsesResponse chunk_;
  ContextPtr ctx_;
  std::shared_ptr<ExportReader> self_;
};

std::shared_ptr<BodyStream> ExportReader::body() {
  return std::make_shared<ReaderBody<ExportReader>>(self_);
}

}  // namespace

void streamExport(const ExportStub& stub, const ContextPtr& ctx,
                  rv1::ExportResponsesRequest request, ExportStreamDone done) {
  ExportReader::start(stub, ctx, std::move(request), std::move(done));
}

}  // namespace feedback::gateway
