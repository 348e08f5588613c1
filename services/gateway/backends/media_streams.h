#pragma once
// Streaming gRPC calls of the media service on behalf of an HTTP request (callback API, the
// request's deadline and id): an upload sent in chunks from the request's body, a file or
// recording streamed to the client, and a rendering read back in chunks into one HTTP body.

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include "common/api/media_urls.h"
#include "feedback/responses/v1/media.grpc.pb.h"
#include "services/gateway/cache/intake_links.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

using MediaStub = std::shared_ptr<feedback::responses::v1::MediaService::Stub>;

// Sends `header` then ctx->request.body; `done` gets the call's status and answer.
void uploadMedia(
    const MediaStub& stub, const ContextPtr& ctx, feedback::responses::v1::MediaUploadHeader header,
    std::function<void(const grpc::Status&, const feedback::responses::v1::Answer&)> done);

// What a read brought: its header and the whole content.
struct MediaContent {
  feedback::responses::v1::MediaHeader header;
  std::string body;
};

using MediaDone = std::function<void(const grpc::Status&, MediaContent)>;

// Starts a server-streaming call whose answers carry chunks, read into one body (SpeakText):
// `start(client_context, reactor)`.
template <class Response>
using MediaReadCall = std::function<void(grpc::ClientContext*, grpc::ClientReadReactor<Response>*)>;

namespace detail {

void prepareCall(grpc::ClientContext& client, const RequestContext& ctx);

template <class Response>
class MediaReader final : public grpc::ClientReadReactor<Response> {
 public:
  MediaReader(const ContextPtr& ctx, const MediaReadCall<Response>& start, MediaDone done)
      : done_(std::move(done)) {
    prepareCall(client_, *ctx);
    start(&client_, this);
    this->StartRead(&response_);
    this->StartCall();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    auto& chunk = *response_.mutable_chunk();
    if (chunk.has_header()) {
      content_.header = std::move(*chunk.mutable_header());
      content_.body.reserve(
          static_cast<std::size_t>(std::max<int64_t>(0, content_.header.size_bytes())));
    } else {
      content_.body += chunk.data();
    }
    this->StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    done_(status, std::move(content_));
    delete this;
  }

 private:
  MediaDone done_;
  grpc::ClientContext client_;
  Response response_;
  MediaContent content_;
};

}  // namespace detail

template <class Response>
void readMedia(const ContextPtr& ctx, const MediaReadCall<Response>& start, MediaDone done) {
  new detail::MediaReader<Response>(ctx, start, std::move(done));
}

// A stored file or recording read as the client takes it (ReadMedia): `done` is called once,
// with the header and the body's stream (pieces as they come from the responses service, the
// next asked for only once the previous one is written), or with the call's failure. Dropping
// the stream ends the call.
using MediaStreamDone = std::function<void(
    const grpc::Status&, feedback::responses::v1::MediaHeader, std::shared_ptr<BodyStream>)>;
void streamMedia(const MediaStub& stub, const ContextPtr& ctx,
                 feedback::responses::v1::ReadMediaRequest request, MediaStreamDone done);

// GET /i/{slug}/responses/{uuid}/live/{field_key}/: live transcription over a WebSocket
// (live_transcription.cc).
void addLiveTranscriptionRoute(Routes& routes, const MediaStub& media, IntakeLinks& links,
                               const api::MediaUrls& urls);

}  // namespace feedback::gateway
