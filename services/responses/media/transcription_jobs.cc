#include "services/responses/media/transcription_jobs.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include "common/core/log.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

constexpr std::chrono::seconds kReconnectDelay{1};
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
                                     Counters& counters)
    : settings_(std::move(settings)), media_(media), counters_(counters) {
  for (int i = 0; i < settings_.workers; ++i) workers_.emplace_back([this] { work(); });
}

TranscriptionJobs::~TranscriptionJobs() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void TranscriptionJobs::wake() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  wake_.notify_one();
}

bool TranscriptionJobs::sleep(std::chrono::milliseconds how_long) {
  std::unique_lock lock(mutex_);
  const uint64_t seen = wakes_;
  wake_.wait_for(lock, how_long, [&] { return stopping_ || wakes_ != seen; });
  return !stopping_;
}

void TranscriptionJobs::work() {
  lowerPriority();
  std::unique_ptr<Transcriber> transcriber;
  std::unique_ptr<pqxx::connection> connection;
  bool failing = false;
  while (true) {
    bool busy = false;
    try {
      if (!transcriber) transcriber = std::make_unique<Transcriber>(settings_.model);
      if (!connection) {
        connection = std::make_unique<pqxx::connection>(settings_.database_url);
        PgResponsesStore::prepare(*connection);
        PgBlobStore::prepare(*connection);
      }
      busy = runOne(*connection, *transcriber);
      if (failing) log::info("transcriptions_working_again", {});
      failing = false;
    } catch (const std::exception& e) {
      connection.reset();
      if (!failing) log::warn("transcriptions_failing", {{"error", e.what()}});
      failing = true;
      if (!sleep(kReconnectDelay)) return;
      continue;
    }
    if (busy) {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    } else if (!sleep(settings_.poll)) {
      return;
    }
  }
}

bool TranscriptionJobs::runOne(pqxx::connection& connection, Transcriber& transcriber) {
  PgBlobStore blobs(connection);
  auto job = blobs.claimTranscription(settings_.lease);
  if (!job) return false;
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> parts;
  blobs.read(job->blob.workspace_uuid, job->blob.uuid,
             [&](std::string_view chunk) { parts.emplace_back(chunk); });
  std::string text;
  double audio_seconds = 0;
  try {
    std::vector<std::string_view> views(parts.begin(), parts.end());
    auto audio = decodeAudio(views, 3600, true);
    audio_seconds = audio.duration_seconds;
    text = transcriber.transcribe(audio.samples.data(), audio.samples.size());
  } catch (const std::exception& e) {
    // Checked at upload, so only a decoder's bad day: tried again, then given up empty.
    log::warn("transcription_failed", {{"blob_uuid", job->blob.uuid}, {"error", e.what()}});
    counters_.increment("transcriptions_failed_total");
    if (job->attempts < settings_.max_attempts) return true;
  }
  PgResponsesStore store(connection);
  media_.applyTranscription(store, *job, text);
  blobs.finishTranscription(job->blob.uuid);
  counters_.increment("transcriptions_total");
  const double took = secondsSince(started);
  log::info("transcribed", {{"blob_uuid", job->blob.uuid},
                            {"audio_seconds", std::to_string(audio_seconds)},
                            {"seconds", std::to_string(took)}});
  return true;
}

}  // namespace feedback::responses
