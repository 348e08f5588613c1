#include "services/responses/media/pg_blob_store.h"

#include <pqxx/pqxx>

#include "common/core/crypto.h"
#include "common/core/errors.h"

namespace feedback::responses {
namespace {

constexpr const char* kInsertBlob = "media_insert_blob";
constexpr const char* kInsertBlobSql =
    "INSERT INTO responses.blobs (uuid, workspace_uuid, content_type, file_name, size_bytes,"
    "  sha256, response_uuid, field_key, transcription_link, transcription_due_at, speech_server)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
    "  CASE WHEN $9::bytea IS NULL THEN NULL"
    "  ELSE clock_timestamp() + interval '30 seconds' END, $10)";

constexpr const char* kInsertChunk = "media_insert_chunk";
constexpr const char* kInsertChunkSql =
    "INSERT INTO responses.blob_chunks (blob_uuid, seq, data) VALUES ($1, $2, $3)";

constexpr const char* kTranscribeNow = "media_transcribe_now";
constexpr const char* kTranscribeNowSql =
    "UPDATE responses.blobs SET transcription_due_at = clock_timestamp()"
    " WHERE workspace_uuid = $1 AND uuid = $2 AND transcription_due_at IS NOT NULL"
    "  AND transcription_attempts = 0";

constexpr const char* kSelectBlob = "media_select_blob";
constexpr const char* kSelectBlobSql =
    "SELECT content_type, file_name, size_bytes, sha256 FROM responses.blobs"
    " WHERE workspace_uuid = $1 AND uuid = $2";

// Chunks a few at a time, so that a read never holds more than that in one result.
constexpr const char* kSelectChunks = "media_select_chunks";
constexpr const char* kSelectChunksSql =
    "SELECT seq, data FROM responses.blob_chunks WHERE blob_uuid = $1 AND seq >= $2"
    " ORDER BY seq LIMIT 8";

// Sizes without the content: length() of a value stored out of line reads its pointer only.
constexpr const char* kSelectChunkSizes = "media_select_chunk_sizes";
constexpr const char* kSelectChunkSizesSql =
    "SELECT length(data) FROM responses.blob_chunks WHERE blob_uuid = $1 ORDER BY seq";

constexpr const char* kSelectChunkRange = "media_select_chunk_range";
constexpr const char* kSelectChunkRangeSql =
    "SELECT seq, data FROM responses.blob_chunks WHERE blob_uuid = $1 AND seq BETWEEN $2 AND $3"
    " ORDER BY seq";

constexpr const char* kDeleteBlob = "media_delete_blob";
constexpr const char* kDeleteBlobSql =
    "DELETE FROM responses.blobs WHERE workspace_uuid = $1 AND uuid = $2";

constexpr const char* kClaimTranscription = "media_claim_transcription";
constexpr const char* kClaimTranscriptionSql =
    "UPDATE responses.blobs SET transcription_attempts = transcription_attempts + 1,"
    "  transcription_due_at = clock_timestamp() + make_interval(secs => $1)"
    " WHERE uuid = (SELECT uuid FROM responses.blobs"
    "  WHERE transcription_due_at <= clock_timestamp() ORDER BY transcription_due_at"
    "  LIMIT 1 FOR UPDATE SKIP LOCKED)"
    " RETURNING uuid, workspace_uuid, content_type, file_name, size_bytes, sha256,"
    "  response_uuid, field_key, transcription_link, transcription_attempts";

constexpr const char* kFinishTranscription = "media_finish_transcription";
constexpr const char* kFinishTranscriptionSql =
    "UPDATE responses.blobs SET transcription_due_at = NULL, transcription_link = NULL"
    " WHERE uuid = $1";

// The recording's answer and link, from its transcription's columns, before they are cleared.
constexpr const char* kQueueAfterTranscription = "media_queue_after_transcription";
constexpr const char* kQueueAfterTranscriptionSql =
    "INSERT INTO responses.speech_server_jobs"
    "  (blob_uuid, workspace_uuid, response_uuid, field_key, link)"
    " SELECT uuid, workspace_uuid, response_uuid, field_key, transcription_link"
    " FROM responses.blobs WHERE uuid = $1 AND speech_server AND response_uuid IS NOT NULL"
    "  AND field_key IS NOT NULL AND transcription_link IS NOT NULL"
    " ON CONFLICT (blob_uuid) DO NOTHING";

constexpr const char* kClaimSpeechServerJob = "media_claim_speech_server_job";
constexpr const char* kClaimSpeechServerJobSql =
    "UPDATE responses.speech_server_jobs SET attempts = attempts + 1,"
    "  due_at = clock_timestamp() + $1 * interval '1 millisecond'"
    " WHERE blob_uuid = (SELECT blob_uuid FROM responses.speech_server_jobs"
    "  WHERE due_at <= clock_timestamp() ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)"
    " RETURNING blob_uuid, workspace_uuid, response_uuid, field_key, link, attempts";

constexpr const char* kRetrySpeechServerJob = "media_retry_speech_server_job";
constexpr const char* kRetrySpeechServerJobSql =
    "UPDATE responses.speech_server_jobs"
    " SET due_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE blob_uuid = $1";

constexpr const char* kFinishSpeechServerJob = "media_finish_speech_server_job";
constexpr const char* kFinishSpeechServerJobSql =
    "DELETE FROM responses.speech_server_jobs WHERE blob_uuid = $1";

constexpr const char* kSelectSpeech = "media_select_speech";
constexpr const char* kSelectSpeechSql =
    "SELECT wav FROM responses.speech_cache WHERE text_sha256 = $1";

constexpr const char* kInsertSpeech = "media_insert_speech";
constexpr const char* kInsertSpeechSql =
    "INSERT INTO responses.speech_cache (text_sha256, wav) VALUES ($1, $2)"
    " ON CONFLICT (text_sha256) DO NOTHING";

pqxx::binarystring bytes(std::string_view data) {
  return pqxx::binarystring(data.data(), data.size());
}

// A row of kSelectBlobSql.
BlobInfo blobInfo(const pqxx::row& row, const std::string& workspace_uuid,
                  const std::string& uuid) {
  return {uuid,
          workspace_uuid,
          row[0].as<std::string>(),
          row[1].as<std::string>(),
          row[2].as<int64_t>(),
          row[3].as<std::string>()};
}

}  // namespace

void PgBlobStore::prepare(pqxx::connection& c) {
  c.prepare(kInsertBlob, kInsertBlobSql);
  c.prepare(kInsertChunk, kInsertChunkSql);
  c.prepare(kTranscribeNow, kTranscribeNowSql);
  c.prepare(kSelectBlob, kSelectBlobSql);
  c.prepare(kSelectChunks, kSelectChunksSql);
  c.prepare(kSelectChunkSizes, kSelectChunkSizesSql);
  c.prepare(kSelectChunkRange, kSelectChunkRangeSql);
  c.prepare(kDeleteBlob, kDeleteBlobSql);
  c.prepare(kClaimTranscription, kClaimTranscriptionSql);
  c.prepare(kFinishTranscription, kFinishTranscriptionSql);
  c.prepare(kQueueAfterTranscription, kQueueAfterTranscriptionSql);
  c.prepare(kClaimSpeechServerJob, kClaimSpeechServerJobSql);
  c.prepare(kRetrySpeechServerJob, kRetrySpeechServerJobSql);
  c.prepare(kFinishSpeechServerJob, kFinishSpeechServerJobSql);
  c.prepare(kSelectSpeech, kSelectSpeechSql);
  c.prepare(kInsertSpeech, kInsertSpeechSql);
}

void PgBlobStore::put(const BlobInfo& info, const std::vector<std::string_view>& content,
                      const TranscriptionJob* transcribe) {
  int64_t size = 0;
  crypto::Sha256 hash;
  for (auto part : content) {
    size += static_cast<int64_t>(part.size());
    hash.update(part);
  }
  pqxx::work tx(connection_);
  if (transcribe) {
    tx.exec_prepared(kInsertBlob, info.uuid, info.workspace_uuid, info.content_type, info.file_name,
                     size, hash.hex(), info.response_uuid, transcribe->field_key,
                     bytes(transcribe->link), transcribe->speech_server);
  } else {
    tx.exec_prepared(kInsertBlob, info.uuid, info.workspace_uuid, info.content_type, info.file_name,
                     size, hash.hex(), info.response_uuid, nullptr, nullptr, false);
  }
  // Parts are cut into chunks of at most kBlobChunkBytes, never joined.
  int seq = 0;
  for (auto part : content) {
    for (std::size_t at = 0; at < part.size(); at += kBlobChunkBytes) {
      tx.exec_prepared(kInsertChunk, info.uuid, seq++, bytes(part.substr(at, kBlobChunkBytes)));
    }
  }
  tx.commit();
}

std::optional<BlobInfo> PgBlobStore::read(const std::string& workspace_uuid,
                                          const std::string& uuid,
                                          const std::function<void(std::string_view)>& chunk) {
  pqxx::read_transaction tx(connection_);
  auto rows = tx.exec_prepared(kSelectBlob, workspace_uuid, uuid);
  if (rows.empty()) return std::nullopt;
  BlobInfo info = blobInfo(rows[0], workspace_uuid, uuid);
  int next = 0;
  while (true) {
    auto chunks = tx.exec_prepared(kSelectChunks, uuid, next);
    for (const auto& row : chunks) {
      pqxx::binarystring data(row[1]);
      chunk(std::string_view(data.get(), data.size()));
      next = row[0].as<int>() + 1;
    }
    if (chunks.size() < 8) break;
  }
  return info;
}

std::optional<BlobInfo> PgBlobStore::info(const std::string& workspace_uuid,
                                          const std::string& uuid) {
  pqxx::read_transaction tx(connection_);
  auto rows = tx.exec_prepared(kSelectBlob, workspace_uuid, uuid);
  if (rows.empty()) return std::nullopt;
  return blobInfo(rows[0], workspace_uuid, uuid);
}

std::vector<int64_t> PgBlobStore::chunkSizes(const std::string& uuid) {
  pqxx::read_transaction tx(connection_);
  std::vector<int64_t> sizes;
  for (const auto& row : tx.exec_prepared(kSelectChunkSizes, uuid)) {
    sizes.push_back(row[0].as<int64_t>());
  }
  return sizes;
}

void PgBlobStore::readChunks(const std::string& uuid, int first_seq, int last_seq,
                             const std::function<void(int, std::string_view)>& chunk) {
  pqxx::read_transaction tx(connection_);
  for (const auto& row : tx.exec_prepared(kSelectChunkRange, uuid, first_seq, last_seq)) {
    pqxx::binarystring data(row[1]);
    chunk(row[0].as<int>(), std::string_view(data.get(), data.size()));
  }
}

void PgBlobStore::remove(const std::string& workspace_uuid, const std::string& uuid) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kDeleteBlob, workspace_uuid, uuid);
  tx.commit();
}

void PgBlobStore::transcribeNow(const std::string& workspace_uuid, const std::string& uuid) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kTranscribeNow, workspace_uuid, uuid);
  tx.commit();
}

std::optional<TranscriptionJob> PgBlobStore::claimTranscription(std::chrono::seconds lease) {
  pqxx::work tx(connection_);
  auto rows = tx.exec_prepared(kClaimTranscription, static_cast<int64_t>(lease.count()));
  tx.commit();
  if (rows.empty()) return std::nullopt;
  const auto& r = rows[0];
  TranscriptionJob job;
  job.blob = {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
              r[3].as<std::string>(), r[4].as<int64_t>(),     r[5].as<std::string>()};
  job.response_uuid = r[6].is_null() ? "" : r[6].as<std::string>();
  job.field_key = r[7].is_null() ? "" : r[7].as<std::string>();
  if (!r[8].is_null()) job.link = pqxx::binarystring(r[8]).str();
  job.attempts = r[9].as<int>();
  return job;
}

void PgBlobStore::finishTranscription(const std::string& blob_uuid) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kQueueAfterTranscription, blob_uuid);
  tx.exec_prepared(kFinishTranscription, blob_uuid);
  tx.commit();
}

std::optional<TranscriptionJob> PgBlobStore::claimSpeechServerJob(std::chrono::milliseconds lease) {
  pqxx::work tx(connection_);
  auto rows = tx.exec_prepared(kClaimSpeechServerJob, static_cast<int64_t>(lease.count()));
  tx.commit();
  if (rows.empty()) return std::nullopt;
  const auto& r = rows[0];
  TranscriptionJob job;
  job.blob.uuid = r[0].as<std::string>();
  job.blob.workspace_uuid = r[1].as<std::string>();
  job.response_uuid = r[2].as<std::string>();
  job.field_key = r[3].as<std::string>();
  job.link = pqxx::binarystring(r[4]).str();
  job.attempts = r[5].as<int>();
  return job;
}

void PgBlobStore::retrySpeechServerJob(const std::string& blob_uuid,
                                       std::chrono::milliseconds delay) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kRetrySpeechServerJob, blob_uuid, static_cast<int64_t>(delay.count()));
  tx.commit();
}

void PgBlobStore::finishSpeechServerJob(const std::string& blob_uuid) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kFinishSpeechServerJob, blob_uuid);
  tx.commit();
}

std::optional<std::string> PgBlobStore::cachedSpeech(const std::string& text_sha256) {
  pqxx::read_transaction tx(connection_);
  auto rows = tx.exec_prepared(kSelectSpeech, text_sha256);
  if (rows.empty()) return std::nullopt;
  return pqxx::binarystring(rows[0][0]).str();
}

void PgBlobStore::cacheSpeech(const std::string& text_sha256, std::string_view wav) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kInsertSpeech, text_sha256, bytes(wav));
  tx.commit();
}

}  // namespace feedback::responses
