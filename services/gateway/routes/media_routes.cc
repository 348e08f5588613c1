// Respondents' media (docs/api.md "Media"; media service of the responses process):
//   POST /i/{slug}/responses/{uuid}/files/{field_key}/   a file_upload answer
//   POST /i/{slug}/responses/{uuid}/audio/{field_key}/   a recorded answer
//   GET  /media/{uuid}?expires=&signature=               a stored file or recording (Range)
//   GET  /i/{slug}/questions/{uuid}/speech.wav           a prompt read aloud (tts_enabled)
//   GET  /i/{slug}/responses/{uuid}/live/{field_key}/    live transcription (WebSocket,
//                                                        live_transcription.cc)
#include "common/api/response_json.h"
#include "common/core/byte_range.h"
#include "common/core/limits.h"
#include "common/core/text.h"
#include "common/grpc/grpc_kit.h"
#include "services/gateway/backends/media_streams.h"
#include "services/gateway/http/query.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;
using FormPtr = std::shared_ptr<const IntakeForm>;

// Room for a multipart client's framing is not given: bodies are the file itself.
constexpr std::size_t kFileBodyLimit = std::size_t{limits::kMaxFileUploadMiB} * 1024 * 1024;
// A prompt's address names its question, whose text may be edited: kept briefly, then checked
// by its tag (the hash of the text read).
constexpr std::string_view kSpeechCaching = "public, max-age=300";

HttpResponse notFound(const RequestContext& ctx, std::string_view what) {
  return errorResponse(ApiError(ErrorCode::kNotFound, std::string(what)), ctx.request_id);
}

// A header's text for the responses service (decoded, for X-File-Name): VALIDATION_ERROR
// naming the header unless it is UTF-8 (HTTP lets a client send any byte above 0x7F).
std::string utf8Header(std::string text, std::string_view header) {
  if (!isValidUtf8(text)) {
    throw ApiError(ErrorCode::kValidationError, std::string(header) + " must be UTF-8 text.",
                   {{std::string(header), "must be UTF-8 text (percent-encoded in X-File-Name)"}});
  }
  return text;
}

void upload(const MediaStub& media, rv1::MediaKind kind, const ContextPtr& ctx, Respond respond,
            const FormPtr& form) {
  rv1::MediaUploadHeader header;
  auto* target = header.mutable_target();
  auto* link = target->mutable_link();
  link->set_workspace_uuid(form->workspace_uuid);
  link->set_workspace_host(ctx->caller->workspace().host());
  *link->mutable_link() = form->link;
  target->set_response_uuid(ctx->params.at(1));
  target->set_token(std::string(ctx->request.header("x-response-token")));
  target->set_field_key(ctx->params.at(2));
  header.set_kind(kind);
  header.set_content_type(
      utf8Header(std::string(ctx->request.header("content-type")), "Content-Type"));
  header.set_file_name(
      utf8Header(percentDecode(ctx->request.header("x-file-name")), "X-File-Name"));
  header.set_size_bytes(static_cast<int64_t>(ctx->request.body.size()));
  uploadMedia(media, ctx, std::move(header),
              [ctx, respond](const grpc::Status& status, const rv1::Answer& answer) {
                if (!status.ok()) {
                  return respond(errorResponse(grpckit::fromStatus(status), ctx->request_id));
                }
                respond(jsonResponse(200, api::renderAnswer(answer)));
              });
}

// Whether the query's expiry and signature sign this blob for the caller's workspace.
bool signedForCaller(const api::MediaUrls& urls, const RequestContext& ctx,
                     const std::string& blob_uuid) {
  Query query(ctx.request.query());
  // Compared only: an altered signature, whatever its bytes, is a 404.
  auto expires = query.bytes("expires");
  auto signature = query.bytes("signature");
  return expires && signature &&
         urls.verify(blob_uuid, ctx.caller->workspace().uuid(), *expires, *signature,
                     api::unixSeconds());
}

std::string contentDisposition(const rv1::MediaHeader& header) {
  const auto& type = header.content_type();
  const bool shown = type.rfind("audio/", 0) == 0 || type.rfind("image/", 0) == 0 ||
                     type.rfind("video/", 0) == 0 || type == "application/pdf";
  std::string encoded;
  for (unsigned char c : header.file_name()) {
    if (std::isalnum(c) || c == '.' || c == '-' || c == '_') {
      encoded += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789ABCDEF";
      encoded += '%';
      encoded += hex[c >> 4];
      encoded += hex[c & 15];
    }
  }
  return std::string(shown ? "inline" : "attachment") + "; filename*=UTF-8''" + encoded;
}

// The headers of a file or rendering, without its body.
HttpResponse mediaHeaders(const rv1::MediaHeader& header, std::string cache_control) {
  HttpResponse response;
  response.status = 200;
  response.setHeader("Content-Type", header.content_type());
  response.setHeader("Content-Disposition", contentDisposition(header));
  response.setHeader("ETag", api::quotedTag(header.etag()));
  response.setHeader("Cache-Control", std::move(cache_control));
  // A respondent's upload is never run as a page of this host, whatever it holds.
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  return response;
}

HttpResponse mediaResponse(MediaContent content, std::string cache_control) {
  HttpResponse response = mediaHeaders(content.header, std::move(cache_control));
  response.body = std::move(content.body);
  return response;
}

// The read a request asks for: the whole file, or the one byte range of its Range header
// (while If-Range, when sent, still names the file's tag).
rv1::ReadMediaRequest readRequest(const RequestContext& ctx, const std::string& blob_uuid) {
  rv1::ReadMediaRequest request;
  request.set_workspace_uuid(ctx.caller->workspace().uuid());
  request.set_blob_uuid(blob_uuid);
  if (auto spec = parseByteRange(ctx.request.header("range"))) {
    auto* range = request.mutable_range();
    if (spec->first) range->set_first(*spec->first);
    if (spec->last) range->set_last(*spec->last);
    request.set_if_range(std::string(ctx.request.header("if-range")));
  }
  return request;
}

// 200 with the whole file, 206 with the part asked for, or 416 when the part is none of it.
HttpResponse streamedMedia(const RequestContext& ctx, const rv1::MediaHeader& header,
                           std::shared_ptr<BodyStream> body) {
  const std::string size = std::to_string(header.size_bytes());
  if (header.unsatisfiable()) {
    HttpResponse response =
        errorResponse(ApiError(ErrorCode::kRangeNotSatisfiable), ctx.request_id);
    response.setHeader("Content-Range", "bytes */" + size);
    response.setHeader("Accept-Ranges", "bytes");
    return response;
  }
  // Private: the address is the credential; kept no longer than it is valid.
  HttpResponse response = mediaHeaders(header, "private, max-age=3600");
  response.setHeader("Accept-Ranges", "bytes");
  if (header.partial()) {
    response.status = 206;
    response.setHeader("Content-Range",
                       "bytes " + std::to_string(header.range_first()) + "-" +
                           std::to_string(header.range_first() + header.range_length() - 1) + "/" +
                           size);
  }
  response.stream = std::move(body);
  response.stream_length = header.range_length();
  return response;
}

void serveMedia(const MediaStub& media, const api::MediaUrls& urls, const ContextPtr& ctx,
                Respond respond) {
  const std::string blob_uuid = ctx->params.at(0);
  if (!signedForCaller(urls, *ctx, blob_uuid)) {
    return respond(notFound(*ctx, "No such file, or its address has expired."));
  }
  streamMedia(media, ctx, readRequest(*ctx, blob_uuid),
              [ctx, respond](const grpc::Status& status, const rv1::MediaHeader& header,
                             std::shared_ptr<BodyStream> body) {
                if (!status.ok()) {
                  return respond(errorResponse(grpckit::fromStatus(status), ctx->request_id));
                }
                respond(streamedMedia(*ctx, header, std::move(body)));
              });
}

void speech(const MediaStub& media, const ContextPtr& ctx, Respond respond, const FormPtr& form) {
  const auto& settings = form->link.settings();
  const auto& question_uuid = ctx->params.at(1);
  const rv1::SpeakTextRequest* found = nullptr;
  auto request = std::make_shared<rv1::SpeakTextRequest>();
  for (const auto& q : form->link.questions()) {
    if (q.uuid() != question_uuid) continue;
    request->set_text(q.prompt());
    found = request.get();
  }
  if (!settings.tts_enabled() || !found) {
    return respond(notFound(*ctx, "This link reads no such question aloud."));
  }
  readMedia<rv1::SpeakTextResponse>(
      ctx,
      [media, request](grpc::ClientContext* client,
                       grpc::ClientReadReactor<rv1::SpeakTextResponse>* r) {
        media->async()->SpeakText(client, request.get(), r);
      },
      [ctx, respond, request](const grpc::Status& status, MediaContent content) {
        if (!status.ok()) {
          return respond(errorResponse(grpckit::fromStatus(status), ctx->request_id));
        }
        const bool unchanged =
            ctx->request.header("if-none-match") == api::quotedTag(content.header.etag());
        HttpResponse response = mediaResponse(std::move(content), std::string(kSpeechCaching));
        if (unchanged) {
          response.status = 304;
          response.body.clear();
        }
        respond(std::move(response));
      });
}

}  // namespace

void addMediaRoutes(Routes& routes, const Backends& backends, IntakeLinks& links,
                    const api::MediaUrls& urls) {
  MediaStub media = rv1::MediaService::NewStub(backends.responses_media);
  auto uploading = [media](rv1::MediaKind kind) {
    return [media, kind](const ContextPtr& ctx, Respond respond, FormPtr form) {
      upload(media, kind, ctx, std::move(respond), form);
    };
  };
  routes.add(Method::kPost, "/i/{slug}/responses/{uuid}/files/{field_key}/",
             intakeRoute(links,
                         RouteAttributes{.access = Access::kPublic,
                                         .response_token = true,
                                         .raw_body_limit = kFileBodyLimit,
                                         .signs_media = true,
                                         .rpcs = {"MediaService/UploadAnswerMedia",
                                                  "LinksService/GetLinkBySlug"}},
                         uploading(rv1::MEDIA_KIND_FILE)));
  routes.add(Method::kPost, "/i/{slug}/responses/{uuid}/audio/{field_key}/",
             intakeRoute(links,
                         RouteAttributes{.access = Access::kPublic,
                                         .response_token = true,
                                         .raw_body_limit = limits::kMaxCompressedAudioUploadBytes,
                                         .signs_media = true,
                                         .rpcs = {"MediaService/UploadAnswerMedia",
                                                  "LinksService/GetLinkBySlug"}},
                         uploading(rv1::MEDIA_KIND_AUDIO)));
  routes.add(Method::kGet, "/media/{uuid}",
             {RouteAttributes{.access = Access::kPublic, .rpcs = {"MediaService/ReadMedia"}},
              [media, &urls](const ContextPtr& ctx, Respond respond) {
                serveMedia(media, urls, ctx, std::move(respond));
              }});
  addLiveTranscriptionRoute(routes, media, links, urls);
  routes.add(
      Method::kGet, "/i/{slug}/questions/{uuid}/speech.wav",
      intakeRoute(links,
                  RouteAttributes{.access = Access::kPublic,
                                  .rpcs = {"MediaService/SpeakText", "LinksService/GetLinkBySlug"}},
                  [media](const ContextPtr& ctx, Respond respond, FormPtr form) {
                    speech(media, ctx, std::move(respond), form);
                  }));
}

}  // namespace feedback::gateway
