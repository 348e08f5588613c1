#pragma once
// Streaming gRPC calls of the media service on behalf of an HTTP request (callback API, the
// request's deadline and id): an upload sent in chunks from the request's body, and a file
// or recording read back in chunks into one HTTP body.

#include <functional>
#include <memory>
#include <string>

#include "common/api/media_urls.h"
#include "feedback/responses/v1/media.grpc.pb.h"
#include "services/gateway/routes/intake_links.h"
#include "services/gateway/routes/request_context.h"

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

// Starts a server-streaming call: `start(client_context, reactor)`.
using MediaReadCall = std::function<void(
    grpc::ClientContext*, grpc::ClientReadReactor<feedback::responses::v1::MediaChunk>*)>;

void readMedia(const ContextPtr& ctx, const MediaReadCall& start,
               std::function<void(const grpc::Status&, MediaContent)> done);

// GET /i/{slug}/responses/{uuid}/live/{field_key}/: live transcription over a WebSocket
// (live_transcription.cc).
RouteEntry liveTranscriptionRoute(const MediaStub& media, IntakeLinks& links,
                                  const api::MediaUrls& urls);

}  // namespace feedback::gateway
