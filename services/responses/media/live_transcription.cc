#include "services/responses/media/live_transcription.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <optional>

#include "common/core/limits.h"
#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "common/service/call_meter.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

constexpr std::size_t kMaxSamples = limits::kMaxAudioUploadBytes / 2;

class LiveTranscription final
    : public grpc::ServerBidiReactor<v1::TranscribeLiveRequest, v1::TranscribeLiveResponse> {
 public:
  LiveTranscription(grpc::CallbackServerContext* context, MediaAnswers& media,
                    TranscriberPool& transcribers, PgPool& pool, Counters& counters)
      : media_(media),
        transcribers_(transcribers),
        pool_(pool),
        meter_(context, counters, "TranscribeLive") {
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
      v1::TranscribeLiveResponse partial;
      partial.set_type("partial");
      partial.set_text(std::move(hypothesis));
      send(std::move(partial), false);
    }
    StartRead(&message_);
  }

  void OnWriteDone(bool ok) override {
    Next next;
    {
      std::lock_guard lock(mutex_);
      writing_ = false;
      if (!ok) {
        // The client is gone: nothing more can be sent, and the call still has to end.
        outbox_.clear();
        if (!finished_) {
          finished_ = true;
          deferred_ = grpc::Status(grpc::StatusCode::CANCELLED, "the client left");
        }
      }
      next = nextLocked();
    }
    act(std::move(next));
  }

  void OnDone() override { delete this; }

 private:
  // The target is checked on the worker pool; reading goes on once it is found good.
  void begin() {
    target_ = message_.target();
    bool queued = pool_.trySubmit([this](PgSession& session) {
      log::TraceScope traced(meter_.traceId());
      auto status = grpckit::guarded(
          [&] {
            PgResponsesStore store(session.connection());
            media_.checkTarget(store, target_, v1::MEDIA_KIND_AUDIO);
            lease_ = transcribers_.tryBorrow();
            if (!lease_) {
              throw ApiError(ErrorCode::kServiceUnavailable, "Every live transcriber is busy.");
            }
            (*lease_)->begin();
          },
          meter_.requestId());
      if (!status.ok()) return fail(status);
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
      log::TraceScope traced(meter_.traceId());
      v1::TranscribeLiveResponse final_transcript;
      auto status = grpckit::guarded(
          [&] {
            if (samples_.empty()) throw ApiError(ErrorCode::kInvalidAnswer, "No audio was sent.");
            PgResponsesStore store(session.connection());
            PgBlobStore blobs(session.connection());
            *final_transcript.mutable_answer() =
                media_.saveLiveRecording(store, blobs, target_, samples_, text);
          },
          meter_.requestId());
      if (!status.ok()) return fail(status);
      final_transcript.set_type("final");
      final_transcript.set_text(text);
      send(std::move(final_transcript), true);
    });
    if (!queued) {
      fail(grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy.")));
    }
  }

  // What to do after a change of the outbox: write its next message, end the call, or nothing.
  struct Next {
    bool write = false;
    std::optional<grpc::Status> finish;
  };

  // Partials that cannot be sent yet are replaced by newer ones; the final one ends the call.
  void send(v1::TranscribeLiveResponse transcript, bool last) {
    Next next;
    {
      std::lock_guard lock(mutex_);
      if (finished_) return;
      if (!outbox_.empty() && outbox_.back().type() == "partial") outbox_.pop_back();
      outbox_.push_back(std::move(transcript));
      if (last) {
        finished_ = true;
        deferred_ = grpc::Status::OK;
      }
      next = nextLocked();
    }
    act(std::move(next));
  }

  // With mutex_ held. A call ends only once no write is under way.
  Next nextLocked() {
    Next next;
    if (writing_) return next;
    if (!outbox_.empty()) {
      current_ = std::move(outbox_.front());
      outbox_.pop_front();
      writing_ = true;
      next.write = true;
    } else if (deferred_) {
      next.finish = std::move(deferred_);
      deferred_.reset();
    }
    return next;
  }

  // Without mutex_ held: after Finish the reactor may be deleted at any moment, so it is the
  // last thing done.
  void act(Next next) {
    if (next.write) return StartWrite(&current_);
    if (next.finish) {
      meter_.record(*next.finish);
      Finish(*next.finish);
    }
  }

  void fail(const grpc::Status& status) {
    Next next;
    {
      std::lock_guard lock(mutex_);
      if (finished_) return;
      finished_ = true;
      outbox_.clear();
      deferred_ = status;
      next = nextLocked();
    }
    act(std::move(next));
  }

  MediaAnswers& media_;
  TranscriberPool& transcribers_;
  PgPool& pool_;
  const service::CallMeter meter_;
  v1::TranscribeLiveRequest message_;
  v1::AnswerTarget target_;
  std::unique_ptr<TranscriberPool::Lease> lease_;
  std::vector<int16_t> samples_;
  std::string last_;
  std::mutex mutex_;
  std::deque<v1::TranscribeLiveResponse> outbox_;
  v1::TranscribeLiveResponse current_;
  bool writing_ = false;
  // No more messages are taken; `deferred_` ends the call once the last write is done.
  bool finished_ = false;
  std::optional<grpc::Status> deferred_;
};

}  // namespace

grpc::ServerBidiReactor<v1::TranscribeLiveRequest, v1::TranscribeLiveResponse>*
newLiveTranscription(grpc::CallbackServerContext* context, MediaAnswers& media,
                     TranscriberPool& transcribers, PgPool& pool, Counters& counters) {
  return new LiveTranscription(context, media, transcribers, pool, counters);
}

}  // namespace feedback::responses
