#include "services/responses/media/media_grpc.h"

#include <algorithm>

#include "common/core/crypto.h"
#include "common/core/limits.h"
#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "common/service/call_meter.h"
#include "services/responses/media/live_transcription.h"
#include "services/responses/media/media_read_stream.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

// An upload's bytes beyond the largest a question may take are refused as they arrive.
constexpr int64_t kMaxUploadBytes =
    std::max(int64_t{limits::kMaxFileUploadMiB} * 1024 * 1024,
             static_cast<int64_t>(limits::kMaxCompressedAudioUploadBytes));

grpc::Status busy() {
  return grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy."));
}

class UploadReactor final : public grpc::ServerReadReactor<v1::UploadAnswerMediaRequest> {
 public:
  UploadReactor(grpc::CallbackServerContext* context, MediaAnswers& media, PgPool& pool,
                Counters& counters, v1::UploadAnswerMediaResponse* response)
      : context_(context),
        media_(media),
        pool_(pool),
        meter_(context, counters, "UploadAnswerMedia"),
        response_(response) {
    StartRead(&message_);
  }

  void OnReadDone(bool ok) override {
    // Not ok: the gateway finished sending, or the call was cancelled (a cut upload is no
    // answer).
    if (!ok) {
      if (context_->IsCancelled()) {
        return finish(grpc::Status(grpc::StatusCode::CANCELLED, "the upload was cancelled"));
      }
      return process();
    }
    if (message_.has_header()) {
      header_ = std::move(*message_.mutable_header());
    } else {
      bytes_ += static_cast<int64_t>(message_.data().size());
      if (bytes_ > kMaxUploadBytes) {
        return finish(grpckit::toStatus(ApiError(ErrorCode::kPayloadTooLarge)));
      }
      parts_.push_back(std::move(*message_.mutable_data()));
    }
    StartRead(&message_);
  }

  void OnDone() override { delete this; }

 private:
  void process() {
    bool queued = pool_.trySubmit([this](PgSession& session) {
      log::TraceScope traced(meter_.traceId());
      finish(grpckit::guarded(
          [&] {
            PgResponsesStore store(session.connection());
            PgBlobStore blobs(session.connection());
            std::vector<std::string_view> content(parts_.begin(), parts_.end());
            *response_->mutable_answer() = media_.upload(store, blobs, header_, content);
          },
          meter_.requestId()));
    });
    if (!queued) finish(busy());
  }

  void finish(const grpc::Status& status) {
    meter_.record(status);
    Finish(status);
  }

  grpc::CallbackServerContext* context_;
  MediaAnswers& media_;
  PgPool& pool_;
  const service::CallMeter meter_;
  v1::UploadAnswerMediaResponse* response_;
  v1::UploadAnswerMediaRequest message_;
  v1::MediaUploadHeader header_;
  std::vector<std::string> parts_;
  int64_t bytes_ = 0;
};

// Streams a header and chunks loaded by `load` on the worker pool, each as a `Response`.
template <class Response>
class ChunkWriter final : public grpc::ServerWriteReactor<Response> {
 public:
  using Load = std::function<void(PgSession&, std::vector<v1::MediaChunk>&)>;

  ChunkWriter(grpc::CallbackServerContext* context, PgPool& pool, Counters& counters,
              std::string_view method, Load load)
      : meter_(context, counters, method) {
    bool queued = pool.trySubmit([this, load = std::move(load)](PgSession& session) {
      log::TraceScope traced(meter_.traceId());
      std::vector<v1::MediaChunk> chunks;
      auto status = grpckit::guarded([&] { load(session, chunks); }, meter_.requestId());
      if (!status.ok()) return finish(status);
      messages_.resize(chunks.size());
      for (std::size_t i = 0; i < chunks.size(); ++i) {
        *messages_[i].mutable_chunk() = std::move(chunks[i]);
      }
      next();
    });
    if (!queued) finish(busy());
  }

  void OnWriteDone(bool ok) override {
    if (!ok) return finish(grpc::Status(grpc::StatusCode::CANCELLED, "the reader left"));
    next();
  }

  void OnDone() override { delete this; }

 private:
  void next() {
    if (at_ < messages_.size()) return this->StartWrite(&messages_[at_++]);
    finish(grpc::Status::OK);
  }

  void finish(const grpc::Status& status) {
    meter_.record(status);
    this->Finish(status);
  }

  const service::CallMeter meter_;
  std::vector<Response> messages_;
  std::size_t at_ = 0;
};

void appendChunks(std::vector<v1::MediaChunk>& out, std::string_view content) {
  for (std::size_t at = 0; at < content.size(); at += kBlobChunkBytes) {
    out.emplace_back().set_data(std::string(content.substr(at, kBlobChunkBytes)));
  }
}

}  // namespace

grpc::ServerReadReactor<v1::UploadAnswerMediaRequest>* MediaGrpc::UploadAnswerMedia(
    grpc::CallbackServerContext* context, v1::UploadAnswerMediaResponse* response) {
  return new UploadReactor(context, media_, pool_, counters_, response);
}

grpc::ServerWriteReactor<v1::ReadMediaResponse>* MediaGrpc::ReadMedia(
    grpc::CallbackServerContext* context, const v1::ReadMediaRequest* request) {
  return newMediaReadStream(context, request, pool_, counters_);
}

grpc::ServerWriteReactor<v1::SpeakTextResponse>* MediaGrpc::SpeakText(
    grpc::CallbackServerContext* context, const v1::SpeakTextRequest* request) {
  return new ChunkWriter<v1::SpeakTextResponse>(
      context, pool_, counters_, "SpeakText",
      [this, request](PgSession& session, std::vector<v1::MediaChunk>& out) {
        if (request->text().empty() || request->text().size() > 10000) {
          throw ApiError(ErrorCode::kValidationError, "There is no text to read aloud.");
        }
        PgBlobStore cache(session.connection());
        const std::string key =
            crypto::sha256Hex(std::string(kSpeechVoice) + "\n" + request->text());
        auto wav = cache.cachedSpeech(key);
        if (!wav) {
          wav = speech_.speak(request->text());
          cache.cacheSpeech(key, *wav);
          counters_.increment("speech_rendered_total");
        }
        auto* header = out.emplace_back().mutable_header();
        header->set_content_type("audio/wav");
        header->set_file_name("speech.wav");
        header->set_size_bytes(static_cast<int64_t>(wav->size()));
        header->set_etag(key);
        appendChunks(out, *wav);
      });
}

grpc::ServerBidiReactor<v1::TranscribeLiveRequest, v1::TranscribeLiveResponse>*
MediaGrpc::TranscribeLive(grpc::CallbackServerContext* context) {
  return newLiveTranscription(context, media_, live_, pool_, counters_);
}

}  // namespace feedback::responses
