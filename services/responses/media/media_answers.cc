#include "services/responses/media/media_answers.h"

#include <algorithm>
#include <numeric>

#include "common/api/media_urls.h"
#include "common/core/ascii.h"
#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/json_writer.h"
#include "common/core/limits.h"
#include "common/core/log.h"
#include "common/questions/answer_rules.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/content_types.h"
#include "services/responses/media/recognition_hints.h"

namespace feedback::responses {
namespace {

// Decoders' frames do not end exactly where a recording's time limit does.
constexpr double kDurationSlackSeconds = 0.25;
// A recording without a question's limit is still bounded (the longest max_duration allowed).

[[noreturn]] void invalid(const std::string& field_key, const std::string& problem) {
  throw ApiError(ErrorCode::kInvalidAnswer, "The answer to '" + field_key + "' " + problem + ".",
                 {{field_key, problem}});
}

[[noreturn]] void tooLarge(const std::string& what) {
  throw ApiError(ErrorCode::kPayloadTooLarge, "The " + what + ".");
}

void checkKind(const questions::Question& question, v1::MediaKind kind) {
  const auto media = questions::mediaOf(question.response_type);
  if (kind == v1::MEDIA_KIND_FILE && media != questions::AnswerMedia::kFile &&
      media != questions::AnswerMedia::kDrawing) {
    invalid(question.field_key, "takes no file upload");
  }
  if (kind == v1::MEDIA_KIND_AUDIO && media != questions::AnswerMedia::kRecording) {
    invalid(question.field_key, "takes no recording");
  }
}

std::optional<std::string> markedBlob(std::string_view address) {
  if (address.rfind(api::kMediaMarkerPrefix, 0) != 0) return std::nullopt;
  auto uuid = address.substr(api::kMediaMarkerPrefix.size());
  if (!isUuid(uuid)) return std::nullopt;
  return std::string(uuid);
}

int64_t totalSize(const std::vector<std::string_view>& content) {
  return std::accumulate(content.begin(), content.end(), int64_t{0},
                         [](int64_t n, std::string_view part) { return n + int64_t(part.size()); });
}

std::string firstBytes(const std::vector<std::string_view>& content, std::size_t count) {
  std::string head;
  for (auto part : content) {
    if (head.size() >= count) break;
    head.append(part.substr(0, count - head.size()));
  }
  return head;
}

std::string baseType(std::string_view content_type) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
  return asciiLowercase(type);
}

// A file name as shown back: the last path segment, control characters dropped, at most 255
// bytes; "upload" when nothing is left.
std::string cleanFileName(std::string_view given) {
  auto slash = given.find_last_of("/\\");
  if (slash != std::string_view::npos) given.remove_prefix(slash + 1);
  std::string name;
  for (char c : given) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) name += c;
  }
  if (name.size() > 255) {
    name.resize(255);
    // Never cut a UTF-8 character in two.
    while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xc0) == 0x80) {
      name.pop_back();
    }
    if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xc0) name.pop_back();
  }
  return name.empty() ? "upload" : name;
}

// A blob whose answer was not saved. Should that fail too, the answer's own error is the one
// reported, and the blob collector deletes it later.
void forget(BlobStore& blobs, const BlobInfo& blob) {
  try {
    blobs.remove(blob.workspace_uuid, blob.uuid);
  } catch (const std::exception& e) {
    log::warn("unsaved_blob_kept", {{"blob_uuid", blob.uuid}, {"error", e.what()}});
  }
}

}  // namespace

struct MediaAnswers::Stored {
  BlobInfo blob;
  // A file's answer value, without its address.
  std::string file_name;
  std::optional<double> duration;
  std::optional<std::string> transcription;
};

std::optional<std::string> blobOfAnswer(const v1::Answer& answer) {
  if (answer.has_audio_url()) return markedBlob(answer.audio_url());
  const auto& value = answer.value_json();
  auto at = value.find("\"url\":\"media:");
  if (at == std::string::npos) return std::nullopt;
  return markedBlob(std::string_view(value).substr(at + 7, 6 + 36));
}

void MediaAnswers::checkTarget(ResponsesStore& store, const v1::AnswerTarget& target,
                               v1::MediaKind kind) {
  const auto form = responses_.forms().of(target.link());
  const auto* question = answeredQuestion(*form, target.response_uuid(), target.field_key());
  auto current = store.findResponse(form->workspaceUuid(), target.response_uuid());
  if (!current) noSuchResponse();
  requireOpen(*current, target.token(), *form);
  checkKind(*question, kind);
}

namespace {

// An uploaded file's type, as the question allows it and its content shows it.
std::string checkedFileType(const questions::Question& question,
                            const v1::MediaUploadHeader& header,
                            const std::vector<std::string_view>& content, int64_t size) {
  const std::string& key = question.field_key;
  if (size > questions::maxFileBytes(question)) {
    tooLarge("file is larger than the question allows (" + questions::fileLimitText(question) +
             ")");
  }
  const std::string type = baseType(header.content_type());
  if (!questions::isAllowedFileType(question, type)) {
    invalid(key, "is of type '" + type + "', which the question does not allow");
  }
  if (!contentMatchesType(type, firstBytes(content, kSniffBytes))) {
    invalid(key, "is not a " + type + " file: its content says otherwise");
  }
  return type;
}

// An uploaded recording's container and length, within the question's limits.
DecodedAudio checkedRecording(const questions::Question& question,
                              const v1::MediaUploadHeader& header,
                              const std::vector<std::string_view>& content, int64_t size) {
  const std::string& key = question.field_key;
  // Opus in WebM or Ogg may be larger than a WAV, by the question's max_duration.
  const auto container = sniffAudioType(firstBytes(content, kSniffBytes));
  const bool compressed = container && *container != "audio/wav";
  const int64_t largest = questions::maxRecordingBytes(question, compressed);
  if (size > largest) {
    tooLarge("recording is larger than " +
             limits::describeBytes(static_cast<std::size_t>(largest)) +
             (compressed ? " (the question's max_duration at 64 kbit/s)" : " (a WAV's limit)"));
  }
  if (baseType(header.content_type()).rfind("audio/", 0) != 0) {
    invalid(key, "must be audio/wav, audio/webm or audio/ogg");
  }
  DecodedAudio audio;
  try {
    audio = decodeAudio(content, limits::kMaxRecordingSeconds, false);
  } catch (const AudioError& e) {
    invalid(key, e.what());
  }
  if (auto problem = questions::durationProblem(
          question, std::max(0.0, audio.duration_seconds - kDurationSlackSeconds))) {
    invalid(key, *problem);
  }
  return audio;
}

// Browsers' MediaRecorder writes WebM that players cannot seek in: stored indexed, or as it
// came (playable, if not seekable) when it cannot be.
std::optional<std::string> indexedWebm(const std::vector<std::string_view>& content) {
  try {
    return seekableWebm(content);
  } catch (const std::exception& e) {
    log::warn("webm_not_indexed", {{"error", e.what()}});
    return std::nullopt;
  }
}

}  // namespace

v1::Answer MediaAnswers::upload(ResponsesStore& store, BlobStore& blobs,
                                const v1::MediaUploadHeader& header,
                                const std::vector<std::string_view>& content) {
  const auto& target = header.target();
  checkTarget(store, target, header.kind());
  const auto form = responses_.forms().of(target.link());
  const auto& question = *form->rules().find(target.field_key());
  const int64_t size = totalSize(content);
  if (size == 0) invalid(question.field_key, "is an empty upload");
  if (header.size_bytes() > 0 && header.size_bytes() != size) {
    invalid(question.field_key, "arrived incomplete (" + std::to_string(size) + " of " +
                                    std::to_string(header.size_bytes()) + " bytes)");
  }
  Stored upload;
  upload.blob.uuid = newUuid();
  upload.blob.workspace_uuid = form->workspaceUuid();
  upload.blob.response_uuid = target.response_uuid();
  if (header.kind() == v1::MEDIA_KIND_FILE) {
    upload.blob.content_type = checkedFileType(question, header, content, size);
    upload.blob.file_name = cleanFileName(header.file_name());
    return save(store, blobs, target, upload, content);
  }
  const DecodedAudio audio = checkedRecording(question, header, content, size);
  upload.blob.content_type = audio.content_type;
  upload.blob.file_name = "recording";
  upload.duration = audio.duration_seconds;
  if (audio.content_type == "audio/webm") {
    if (const auto indexed = indexedWebm(content)) {
      return save(store, blobs, target, upload, {*indexed});
    }
  }
  return save(store, blobs, target, upload, content);
}

v1::Answer MediaAnswers::saveLiveRecording(ResponsesStore& store, BlobStore& blobs,
                                           const v1::AnswerTarget& target,
                                           const std::vector<int16_t>& samples,
                                           const std::string& transcription) {
  checkTarget(store, target, v1::MEDIA_KIND_AUDIO);
  const auto form = responses_.forms().of(target.link());
  Stored upload;
  upload.blob = {newUuid(), form->workspaceUuid(), "audio/wav", "recording"};
  upload.blob.response_uuid = target.response_uuid();
  upload.duration = static_cast<double>(samples.size()) / kRecogniserSampleRate;
  upload.transcription = transcription;
  const std::string wav = wavOf(samples);
  return save(store, blobs, target, upload, {wav});
}

v1::Answer MediaAnswers::save(ResponsesStore& store, BlobStore& blobs,
                              const v1::AnswerTarget& target, const Stored& upload,
                              const std::vector<std::string_view>& content) {
  const auto form = responses_.forms().of(target.link());
  const auto& question = *form->rules().find(target.field_key());
  const bool recording = upload.duration.has_value();
  // Every recording is transcribed whole by a worker, a live one too: its live transcript
  // stands until then (a stream's last words are decoded before the whole is heard).
  const bool transcribe = recording;
  TranscriptionJob job;
  if (transcribe) {
    job.response_uuid = target.response_uuid();
    job.field_key = target.field_key();
    job.link = target.link().SerializeAsString();
    job.speech_server = speech_server_;
  }
  blobs.put(upload.blob, content, transcribe ? &job : nullptr);
  v1::Answer saved;
  std::optional<std::string> replaced;
  bool found = false;
  try {
    found = store.updateResponse(
        form->workspaceUuid(), target.response_uuid(), [&](StoredResponse& stored) {
          requireOpen(stored, target.token(), *form);
          std::vector<v1::Answer> answers = std::move(stored.answers);
          std::optional<v1::Answer> before;
          auto it = std::find_if(answers.begin(), answers.end(), [&](const v1::Answer& a) {
            return a.field_key() == target.field_key();
          });
          if (it != answers.end()) {
            before = std::move(*it);
            answers.erase(it);
            replaced = blobOfAnswer(*before);
          }
          saved = makeAnswer(question, nullptr, before ? before->uuid() : "");
          const std::string address = api::mediaMarker(upload.blob.uuid);
          if (recording) {
            saved.set_audio_url(address);
            saved.set_duration(*upload.duration);
            if (upload.transcription) {
              saved.set_transcription(*upload.transcription);
              responses_.evaluation().saved(question, saved, nullptr, stored.insight_jobs);
            }
          } else {
            std::string value;
            JsonWriter(value)
                .beginObject()
                .field("file_name", upload.blob.file_name)
                .field("content_type", upload.blob.content_type)
                .field("size_bytes", totalSize(content))
                .field("url", address)
                .endObject();
            saved.set_value_json(std::move(value));
          }
          answers.push_back(saved);
          setAnswers(stored, std::move(answers));
          return std::optional<ResponsesStore::Change>(ResponsesStore::Change{});
        });
  } catch (...) {
    forget(blobs, upload.blob);
    throw;
  }
  if (!found) {
    forget(blobs, upload.blob);
    noSuchResponse();
  }
  if (replaced) {
    try {
      blobs.remove(upload.blob.workspace_uuid, *replaced);
    } catch (const std::exception& e) {
      log::warn("replaced_blob_kept", {{"blob_uuid", *replaced}, {"error", e.what()}});
    }
  }
  if (transcribe) {
    try {
      blobs.transcribeNow(upload.blob.workspace_uuid, upload.blob.uuid);
      if (queued_) queued_();
    } catch (const std::exception& e) {
      // Saved all the same: the job comes due by itself a little later.
      log::warn("transcription_not_hastened",
                {{"blob_uuid", upload.blob.uuid}, {"error", e.what()}});
    }
  }
  return saved;
}

std::shared_ptr<const IntakeForm> MediaAnswers::formOf(const TranscriptionJob& job) {
  v1::IntakeLink link;
  if (!link.ParseFromString(job.link)) return nullptr;
  return responses_.forms().of(link);
}

std::string MediaAnswers::recognitionHintsFor(const TranscriptionJob& job) {
  const auto form = formOf(job);
  const questions::Question* question = form ? form->rules().find(job.field_key) : nullptr;
  return question ? recognitionHints(*question) : std::string();
}

bool MediaAnswers::applyTranscription(ResponsesStore& store, const TranscriptionJob& job,
                                      const std::string& text) {
  const auto form = formOf(job);
  if (!form) return false;
  const questions::Question* question = form->rules().find(job.field_key);
  const std::string address = api::mediaMarker(job.blob.uuid);
  return responses_.reviseAnswer(
      store, job.blob.workspace_uuid, job.response_uuid, [&](StoredResponse& stored) {
        auto answer =
            std::find_if(stored.answers.begin(), stored.answers.end(), [&](const v1::Answer& a) {
              return a.field_key() == job.field_key && a.audio_url() == address;
            });
        if (answer == stored.answers.end()) return false;
        // Nothing heard (or a transcription given up) never replaces words: a live
        // recording's, the local one a speech server was to improve.
        if (text.empty() && !answer->transcription().empty()) return false;
        const v1::Answer before = *answer;
        answer->set_transcription(text);
        if (question) {
          if (stored.response.status() == kCompleted) {
            responses_.evaluation().completed(*question, *answer, &before, stored.insight_jobs);
          } else {
            responses_.evaluation().saved(*question, *answer, &before, stored.insight_jobs);
          }
        }
        return true;
      });
}

}  // namespace feedback::responses
