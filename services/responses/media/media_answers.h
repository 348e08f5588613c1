#pragma once
// The rules of respondents' media (docs/api.md "Media"): a file_upload answer or a
// recording is checked (question type, declared and actual content type, size, duration),
// stored as a blob, and saved as the answer, whose address is a marker until rendered
// (common/api/media_urls.h); a recording's transcription fills the answer later and is judged
// like a typed answer. Knows nothing of gRPC or SQL.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "feedback/responses/v1/media.pb.h"
#include "services/responses/media/blob_store.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {

// Called once a recording waits for its transcription.
using TranscriptionQueued = std::function<void()>;

// The blob an answer's file or recording is stored in; nullopt when it has none.
std::optional<std::string> blobOfAnswer(const v1::Answer& answer);

class MediaAnswers {
 public:
  // With `speech_server`, recordings are transcribed by a speech server too (after the local
  // transcript, which stands meanwhile), live ones included.
  MediaAnswers(ResponsesService& responses, TranscriptionQueued queued = nullptr,
               bool speech_server = false)
      : responses_(responses), queued_(std::move(queued)), speech_server_(speech_server) {}

  // Stores an upload (`content`: its bytes in parts, as they came) and saves it as the answer.
  // 404 as any call on a response; INVALID_ANSWER for a question that takes no such upload,
  // a type the question does not allow, content that is not what it claims, a recording that
  // cannot be decoded or is too long; PAYLOAD_TOO_LARGE over the question's or the API's limit.
  v1::Answer upload(ResponsesStore& store, BlobStore& blobs, const v1::MediaUploadHeader& header,
                    const std::vector<std::string_view>& content);

  // Saves a recording made with live transcription: its samples (16 kHz mono) are stored as a
  // WAV, and `transcription` with it until the recording's whole transcription replaces it.
  v1::Answer saveLiveRecording(ResponsesStore& store, BlobStore& blobs,
                               const v1::AnswerTarget& target, const std::vector<int16_t>& samples,
                               const std::string& transcription);

  // Fills in a transcription made for `job`, if the answer still holds that recording; an
  // empty one replaces no words.
  bool applyTranscription(ResponsesStore& store, const TranscriptionJob& job,
                          const std::string& text);

  // What a recording of `job`'s answer likely says (recognition_hints.h); empty when its
  // question is not in its link.
  std::string recognitionHintsFor(const TranscriptionJob& job);

  // The open response and question an upload or a live recording is for (404, INVALID_ANSWER
  // as upload()), checked before any content is taken.
  void checkTarget(ResponsesStore& store, const v1::AnswerTarget& target, v1::MediaKind kind);

 private:
  struct Stored;
  // The form `job`'s answer was saved under; null when its link cannot be read.
  std::shared_ptr<const IntakeForm> formOf(const TranscriptionJob& job);
  v1::Answer save(ResponsesStore& store, BlobStore& blobs, const v1::AnswerTarget& target,
                  const Stored& upload, const std::vector<std::string_view>& content);

  ResponsesService& responses_;
  TranscriptionQueued queued_;
  const bool speech_server_;
};

}  // namespace feedback::responses
