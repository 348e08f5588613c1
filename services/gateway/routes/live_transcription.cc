// GET /i/{slug}/responses/{uuid}/live/{field_key}/?token=  (WebSocket, docs/api.md "Media")
// The respondent's PCM frames are relayed over a gRPC bidirectional stream to the responses
// service's decoders; partial and final transcripts come back as text frames. A stream is
// bounded in bytes (the audio upload limit) and in time (the question's max_duration and a
// margin, else an hour).
#include <boost/json/parse.hpp>
#include <deque>
#include <mutex>

#include "common/api/response_json.h"
#include "common/core/json_writer.h"
#include "common/core/limits.h"
#include "common/grpc/grpc_kit.h"
#include "services/gateway/backends/media_streams.h"
#include "services/gateway/http/query.h"
#include "services/gateway/http/responses.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;

constexpr std::chrono::seconds kLongestStream{3600};
// Past a question's max_duration: the time to connect and to end.
constexpr std::chrono::seconds kStreamMargin{30};

std::chrono::seconds streamLimit(const feedback::links::v1::Question& question) {
  boost::system::error_code ec;
  auto configuration = boost::json::parse(question.configuration_json(), ec);
  if (!ec && configuration.is_object()) {
    if (const auto* max = configuration.as_object().if_contains("max_duration");
        max && max->is_int64() && max->as_int64() > 0) {
      return std::min(kLongestStream, std::chrono::seconds(max->as_int64())) + kStreamMargin;
    }
  }
  return kLongestStream;
}

// The relay between one WebSocket and one TranscribeLive call; deletes itself when the call
// is done. The socket's handler reaches it through `Shared`, which forgets it then.
class LiveRelay final
    : public grpc::ClientBidiReactor<rv1::TranscribeLiveRequest, rv1::TranscribeLiveResponse> {
 public:
  struct Shared {
    std::mutex mutex;
    LiveRelay* relay = nullptr;
    std::shared_ptr<WebSocketPeer> peer;
  };

  LiveRelay(const MediaStub& media, const api::MediaUrls& urls, const RequestContext& ctx,
            rv1::AnswerTarget target, std::chrono::seconds limit, std::shared_ptr<Shared> shared)
      : urls_(urls),
        host_(ctx.caller->workspace().host()),
        workspace_uuid_(ctx.caller->workspace().uuid()),
        request_id_(ctx.request_id),
        shared_(std::move(shared)) {
    client_.set_deadline(std::chrono::system_clock::now() + limit);
    client_.AddMetadata("x-request-id", request_id_);
    client_.AddMetadata("traceparent", trace::format(ctx.trace));
    media->async()->TranscribeLive(&client_, this);
    rv1::TranscribeLiveRequest first;
    *first.mutable_target() = std::move(target);
    queue(std::move(first));
    {
      std::lock_guard lock(shared_->mutex);
      shared_->relay = this;
    }
    StartRead(&transcript_);
    StartCall();
  }

  // From the socket's thread.
  void audio(std::string message, bool binary) {
    rv1::TranscribeLiveRequest next;
    if (binary) {
      bytes_ += message.size();
      if (bytes_ > limits::kMaxAudioUploadBytes) {
        return client_.TryCancel();
      }
      next.set_pcm(std::move(message));
      return queue(std::move(next));
    }
    boost::system::error_code ec;
    auto parsed = boost::json::parse(message, ec);
    if (!ec && parsed.is_object() && parsed.as_object().if_contains("type") &&
        parsed.as_object().at("type") == "end") {
      next.set_end(true);
      queue(std::move(next), true);
    }
  }

  void gone() { client_.TryCancel(); }

  void OnWriteDone(bool ok) override {
    std::lock_guard lock(mutex_);
    writing_ = false;
    if (!ok) return;
    writeNext();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    std::string out;
    JsonWriter json(out);
    json.beginObject().field("type", transcript_.type()).field("text", transcript_.text());
    if (transcript_.has_answer()) {
      json.key("answer").raw(urls_.resolve(api::renderAnswer(transcript_.answer()), host_,
                                           workspace_uuid_, api::unixSeconds()));
    }
    json.endObject();
    send(std::move(out));
    StartRead(&transcript_);
  }

  void OnDone(const grpc::Status& status) override {
    std::shared_ptr<WebSocketPeer> peer;
    {
      std::lock_guard lock(shared_->mutex);
      shared_->relay = nullptr;
      peer = std::move(shared_->peer);
    }
    if (peer) {
      if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
        std::string body = errorResponse(grpckit::fromStatus(status), request_id_).body;
        peer->sendText("{\"type\":\"error\"," + body.substr(1));
      }
      peer->close(status.ok() ? "done" : "ended");
    }
    delete this;
  }

 private:
  void send(std::string text) {
    std::lock_guard lock(shared_->mutex);
    if (shared_->peer) shared_->peer->sendText(std::move(text));
  }

  void queue(rv1::TranscribeLiveRequest message, bool last = false) {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    outbox_.push_back(std::move(message));
    ended_ = last;
    writeNext();
  }

  // With mutex_ held.
  void writeNext() {
    if (writing_) return;
    if (outbox_.empty()) {
      if (ended_ && !writes_done_) {
        writes_done_ = true;
        StartWritesDone();
      }
      return;
    }
    current_ = std::move(outbox_.front());
    outbox_.pop_front();
    writing_ = true;
    StartWrite(&current_);
  }

  const api::MediaUrls& urls_;
  const std::string host_;
  const std::string workspace_uuid_;
  const std::string request_id_;
  std::shared_ptr<Shared> shared_;
  grpc::ClientContext client_;
  rv1::TranscribeLiveResponse transcript_;
  std::mutex mutex_;
  std::deque<rv1::TranscribeLiveRequest> outbox_;
  rv1::TranscribeLiveRequest current_;
  std::size_t bytes_ = 0;
  bool writing_ = false;
  bool ended_ = false;
  bool writes_done_ = false;
};

void openLive(const MediaStub& media, const api::MediaUrls& urls, const ContextPtr& ctx,
              Respond respond, const std::shared_ptr<const IntakeForm>& form) {
  if (!ctx->request.accept_websocket) {
    throw ApiError(ErrorCode::kValidationError,
                   "Live transcription is a WebSocket: connect with an Upgrade request.");
  }
  const feedback::links::v1::Question* question = nullptr;
  for (const auto& q : form->link.questions()) {
    if (q.field_key() == ctx->params.at(2)) question = &q;
  }
  auto token = Query(ctx->request.query()).bytes("token");
  if (!form->link.settings().live_transcription() || !question || !token ||
      !isUsableResponseToken(*token)) {
    throw ApiError(ErrorCode::kNotFound, "This link transcribes no such answer live.");
  }
  rv1::AnswerTarget target;
  auto* link = target.mutable_link();
  link->set_workspace_uuid(form->workspace_uuid);
  link->set_workspace_host(ctx->caller->workspace().host());
  *link->mutable_link() = form->link;
  target.set_response_uuid(ctx->params.at(1));
  target.set_token(*token);
  target.set_field_key(question->field_key());
  const auto limit = streamLimit(*question);
  ctx->request.accept_websocket([media, &urls, ctx, target = std::move(target),
                                 limit](std::shared_ptr<WebSocketPeer> peer) mutable {
    auto shared = std::make_shared<LiveRelay::Shared>();
    shared->peer = std::move(peer);
    new LiveRelay(media, urls, *ctx, std::move(target), limit, shared);
    WebSocketHandler handler;
    handler.on_message = [shared](std::string message, bool binary) {
      std::lock_guard lock(shared->mutex);
      if (shared->relay) shared->relay->audio(std::move(message), binary);
    };
    handler.on_closed = [shared] {
      std::lock_guard lock(shared->mutex);
      shared->peer.reset();
      if (shared->relay) shared->relay->gone();
    };
    return handler;
  });
  HttpResponse switching;
  switching.status = 101;
  respond(std::move(switching));
}

}  // namespace

void addLiveTranscriptionRoute(Routes& routes, const MediaStub& media, IntakeLinks& links,
                               const api::MediaUrls& urls) {
  routes.add(Method::kGet, "/i/{slug}/responses/{uuid}/live/{field_key}/",
             intakeRoute(links,
                         RouteAttributes{
                             .access = Access::kPublic,
                             .rpcs = {"MediaService/TranscribeLive", "LinksService/GetLinkBySlug"}},
                         [media, &urls](const ContextPtr& ctx, Respond respond,
                                        std::shared_ptr<const IntakeForm> form) {
                           openLive(media, urls, ctx, std::move(respond), form);
                         }));
}

}  // namespace feedback::gateway
