#include "services/responses/media/speech_server_jobs.h"

#include <pqxx/pqxx>

#include "common/core/limits.h"
#include "common/core/log.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

void prepare(pqxx::connection& c) {
  PgResponsesStore::prepare(c);
  PgBlobStore::prepare(c);
}

}  // namespace

SpeechServerJobs::SpeechServerJobs(SpeechServerJobSettings settings, const SpeechServer& server,
                                   std::chrono::milliseconds server_timeout, MediaAnswers& media,
                                   Counters& counters)
    : settings_(std::move(settings)),
      server_(server),
      // A claimed job waits for at most one call (and its margin) before it is settled.
      lease_(server_timeout * 2 + std::chrono::seconds(10)),
      media_(media),
      counters_(counters),
      workers_({"speech_server_jobs", settings_.database_url, settings_.workers, settings_.poll,
                &prepare},
               [this](pqxx::connection& c) { return runOne(c); }) {}

std::optional<std::string> SpeechServerJobs::wavOfJob(pqxx::connection& connection,
                                                      const TranscriptionJob& job) {
  PgBlobStore blobs(connection);
  const auto parts = blobs.readAll(job.blob.workspace_uuid, job.blob.uuid);
  if (!parts) return std::nullopt;  // the answer was replaced and its recording collected
  try {
    const std::vector<std::string_view> views(parts->begin(), parts->end());
    return wavOf(decodeAudio(views, limits::kMaxRecordingSeconds, true).samples);
  } catch (const std::exception& e) {
    log::warn("speech_server_job_undecodable", {{"blob_uuid", job.blob.uuid}, {"error", e.what()}});
    return std::nullopt;
  }
}

bool SpeechServerJobs::runOne(pqxx::connection& connection) {
  PgBlobStore blobs(connection);
  const auto job = blobs.claimSpeechServerJob(lease_);
  if (!job) return false;
  const auto finish = [&](const char* outcome) {
    blobs.finishSpeechServerJob(job->blob.uuid);
    counters_.increment(std::string("speech_server_jobs_total{outcome=\"") + outcome + "\"}");
    return true;
  };
  // Past its attempts only when workers died holding it: the local transcript stands.
  if (job->attempts > settings_.max_attempts) return finish("given_up");
  const auto wav = wavOfJob(connection, *job);
  if (!wav) return finish("gone");
  const auto outcome = server_.transcribe(*wav, media_.recognitionHintsFor(*job));
  if (!outcome.text) {
    log::warn("speech_server_call_failed", {{"blob_uuid", job->blob.uuid},
                                            {"attempt", std::to_string(job->attempts)},
                                            {"error", outcome.error}});
    if (!outcome.worth_retrying) return finish("refused");
    if (job->attempts >= settings_.max_attempts) return finish("given_up");
    counters_.increment("speech_server_jobs_total{outcome=\"retry\"}");
    blobs.retrySpeechServerJob(job->blob.uuid,
                               settings_.retry_delay * (1 << std::min(job->attempts - 1, 10)));
    return true;
  }
  PgResponsesStore store(connection);
  const bool applied = media_.applyTranscription(store, *job, *outcome.text);
  log::info("speech_server_transcribed",
            {{"blob_uuid", job->blob.uuid}, {"applied", applied ? "true" : "false"}});
  return finish(applied ? "server" : "stale");
}

}  // namespace feedback::responses
