#pragma once
// BlobStore in PostgreSQL (migrations/005_media.sql): a blob's row and its chunks are written
// in one transaction, so a blob is either whole or absent. Also the queues of transcriptions
// (transcription_jobs.h, and migrations/011_speech_server_jobs.sql for speech_server_jobs.h)
// and the cache of prompts read aloud, which live beside the blobs.

#include <pqxx/connection>

#include <chrono>

#include "services/responses/media/blob_store.h"

namespace feedback::responses {

class PgBlobStore final : public BlobStore {
 public:
  explicit PgBlobStore(pqxx::connection& connection) : connection_(connection) {}
  static void prepare(pqxx::connection& connection);

  void put(const BlobInfo& info, const std::vector<std::string_view>& content,
           const TranscriptionJob* transcribe) override;
  std::optional<BlobInfo> read(const std::string& workspace_uuid, const std::string& uuid,
                               const std::function<void(std::string_view)>& chunk) override;
  void remove(const std::string& workspace_uuid, const std::string& uuid) override;
  void transcribeNow(const std::string& workspace_uuid, const std::string& uuid) override;

  // Reads of a part of a blob (media_reads.h): its row, its chunks' sizes in order, and the
  // chunks from `first_seq` to `last_seq`, each given to `chunk` with its seq.
  std::optional<BlobInfo> info(const std::string& workspace_uuid, const std::string& uuid);
  std::vector<int64_t> chunkSizes(const std::string& uuid);
  void readChunks(const std::string& uuid, int first_seq, int last_seq,
                  const std::function<void(int, std::string_view)>& chunk);

  // A due transcription, leased for `lease` (a worker that dies gives it back then), with its
  // attempts counted; nullopt when none is due.
  std::optional<TranscriptionJob> claimTranscription(std::chrono::seconds lease);
  // The transcription is made, or given up: the blob stays, its job ends, and in the same
  // transaction a recording uploaded for the speech server is queued for it.
  void finishTranscription(const std::string& blob_uuid);

  // A due speech-server transcription, leased and counted as claimTranscription's.
  std::optional<TranscriptionJob> claimSpeechServerJob(std::chrono::milliseconds lease);
  void retrySpeechServerJob(const std::string& blob_uuid, std::chrono::milliseconds delay);
  void finishSpeechServerJob(const std::string& blob_uuid);

  std::optional<std::string> cachedSpeech(const std::string& text_sha256);
  void cacheSpeech(const std::string& text_sha256, std::string_view wav);

 private:
  pqxx::connection& connection_;
};

}  // namespace feedback::responses
