#include "services/responses/media/live_transcription.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <optional>

#include "common/core/limits.h"
#include "common/grpc/grpc_kit.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

constexpr std::size_t kMaxSamples = limits::kMaxAudioUploadBytes / 2;

class LiveTranscription final : public grpc::ServerBidiReactor<v1::LiveAudio, v1::LiveTranscript> {
 public:
  LiveTranscription(MediaAnswers& media, TranscriberPool& transcribers, PgPool& pool,
                    Counters& counters)
      : media_(media), transcribers_(transcribers), pool_(pool), counters_(counters) {
    StartRead(&message_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return fail(grpc::Status(grpc::StatusCode::CANCELLED, "the stream ended early"));
    if (message_.has_target()) return begin();
    if (!lease_) return fail(grpckit::toStatus(ApiError(ErrorCode::kValidationError)));
    if (message_.has_end()) return finishRecording();
    const auto& pcm = message_.pcm();
    const std::size_t count = pcm.size() / 2;
    if (samples_.size() + count > kMaxSamples) {
      return fail(grpckit::toStatus(ApiError(ErrorCode::kPayloadTooLarge)));
    }
    const std::size_t at = samples_.size();
    samples_.resize(at + count);
    std::memcpy(samples_.data() + at, pcm.data(), count * 2);
    std::string hypothesis = (*lease_)->feed(samples_.data() + at, count);
    if (hypothesis != last_) {
      last_ = hypothesis;
      v1::LiveTranscript partial;
      partial.set_type("partial");
      partial.set_text(std::move(hypothesis));
      send(std::move(partial), false);
    }
    StartRead(&message_);
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard lock(mutex_);
    writing_ = false;
    if (!ok) {
      outbox_.clear();
      return;
    }
    flush();
  }

  void OnDone() override { delete this; }

 private:
  // The target is checked on the worker pool; reading goes on once it is found good.
  void begin() {
    target_ = message_.target();
    bool queued = pool_.trySubmit([this](PgSession& session) {
      auto status = grpckit::guarded([&] {
        PgResponsesStore store(session.connection());
        media_.checkTarget(store, target_, v1::MEDIA_KIND_AUDIO);
      });
      if (!status.ok()) return fail(status);
      lease_ = transcribers_.tryBorrow();
      if (!lease_) {
        return fail(grpckit::toStatus(
            ApiError(ErrorCode::kServiceUnavailable, "Every live transcriber is busy.")));
      }
      (*lease_)->begin();
      StartRead(&message_);
    });
    if (!queued) {
      fail(grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy.")));
    }
  }

  void finishRecording() {
    std::string text = (*lease_)->end();
    lease_.reset();
    bool queued = pool_.trySubmit([this, text = std::move(text)](PgSession& session) {
      v1::LiveTranscript final_transcript;
      auto status = grpckit::guarded([&] {
        if (samples_.empty()) throw ApiError(ErrorCode::kInvalidAnswer, "No audio was sent.");
        PgResponsesStore store(session.connection());
        PgBlobStore blobs(session.connection());
        *final_transcript.mutable_answer() =
            media_.saveLiveRecording(store, blobs, target_, samples_, text);
      });
      if (!status.ok()) return fail(status);
      final_transcript.set_type("final");
      final_transcript.set_text(text);
      send(std::move(final_transcript), true);
    });
    if (!queued) {
      fail(grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy.")));
    }
  }

  // Partials that cannot be sent yet are replaced by newer ones; the final one ends the call.
  void send(v1::LiveTranscript transcript, bool last) {
    std::lock_guard lock(mutex_);
    if (!outbox_.empty() && outbox_.back().type() == "partial") outbox_.pop_back();
    outbox_.push_back(std::move(transcript));
    finish_after_ = finish_after_ || last;
    flush();
  }

  // With mutex_ held.
  void flush() {
    if (writing_) return;
    if (outbox_.empty()) {
      if (finish_after_ && !finished_) {
        finished_ = true;
        countCall(grpc::Status::OK);
        Finish(grpc::Status::OK);
      }
      return;
    }
    current_ = std::move(outbox_.front());
    outbox_.pop_front();
    writing_ = true;
    StartWrite(&current_);
  }

  void fail(const grpc::Status& status) {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    lease_.reset();
    countCall(status);
    Finish(status);
  }

  void countCall(const grpc::Status& status) {
    counters_.increment("rpc_total{method=\"TranscribeLive\",code=\"" +
                        std::string(grpckit::statusName(status.error_code())) + "\"}");
  }

  MediaAnswers& media_;
  TranscriberPool& transcribers_;
  PgPool& pool_;
  Counters& counters_;
  v1::LiveAudio message_;
  v1::AnswerTarget target_;
  std::unique_ptr<TranscriberPool::Lease> lease_;
  std::vector<int16_t> samples_;
  std::string last_;
  std::mutex mutex_;
  std::deque<v1::LiveTranscript> outbox_;
  v1::LiveTranscript current_;
  bool writing_ = false;
  bool finish_after_ = false;
  bool finished_ = false;
};

}  // namespace

grpc::ServerBidiReactor<v1::LiveAudio, v1::LiveTranscript>* newLiveTranscription(
    MediaAnswers& media, TranscriberPool& transcribers, PgPool& pool, Counters& counters) {
  return new LiveTranscription(media, transcribers, pool, counters);
}

}  // namespace feedback::responses
