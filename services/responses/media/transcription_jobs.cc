#include "services/responses/media/transcription_jobs.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include "common/core/limits.h"
#include "common/core/log.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

// Below request handling: the kernel gives this thread the CPU only when they leave it.
constexpr int kWorkerNiceness = 10;

void lowerPriority() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kWorkerNiceness);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TranscriptionJobs::TranscriptionJobs(TranscriptionSettings settings, MediaAnswers& media,
                                     Counters& counters, std::function<void()> server_queued)
    : settings_(std::move(settings)),
      media_(media),
      counters_(counters),
      server_queued_(std::move(server_queued)),
      workers_({"transcriptions", settings_.database_url, settings_.workers, settings_.poll,
                [](pqxx::connection& c) {
                  PgResponsesStore::prepare(c);
                  PgBlobStore::prepare(c);
                },
                &lowerPriority},
               [this](pqxx::connection& c) { return runOne(c); }) {}

bool TranscriptionJobs::runOne(pqxx::connection& connection) {
  // Each worker thread loads a decoder of its own once (a moment, some 30 MB).
  thread_local std::unique_ptr<Transcriber> transcriber;
  if (!transcriber) transcriber = std::make_unique<Transcriber>(settings_.model);
  PgBlobStore blobs(connection);
  auto job = blobs.claimTranscription(settings_.lease);
  if (!job) return false;
  const auto started = std::chrono::steady_clock::now();
  const auto parts = blobs.readAll(job->blob.workspace_uuid, job->blob.uuid);
  // Deleted since it was claimed (its answer replaced and collected): nothing left to do.
  if (!parts) return true;
  std::string text;
  double audio_seconds = 0;
  try {
    std::vector<std::string_view> views(parts->begin(), parts->end());
    auto audio = decodeAudio(views, limits::kMaxRecordingSeconds, true);
    audio_seconds = audio.duration_seconds;
    text = transcriber->transcribe(audio.samples.data(), audio.samples.size(),
                                   media_.recognitionHintsFor(*job));
  } catch (const std::exception& e) {
    // Checked at upload, so only a decoder's bad day: tried again, then given up empty.
    log::warn("transcription_failed", {{"blob_uuid", job->blob.uuid}, {"error", e.what()}});
    counters_.increment("transcriptions_failed_total");
    if (job->attempts < settings_.max_attempts) return true;
  }
  PgResponsesStore store(connection);
  media_.applyTranscription(store, *job, text);
  blobs.finishTranscription(job->blob.uuid);
  if (server_queued_) server_queued_();
  counters_.increment("transcriptions_total");
  const double took = secondsSince(started);
  log::info("transcribed", {{"blob_uuid", job->blob.uuid},
                            {"audio_seconds", std::to_string(audio_seconds)},
                            {"seconds", std::to_string(took)}});
  return true;
}

}  // namespace feedback::responses
