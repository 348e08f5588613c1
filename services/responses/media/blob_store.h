#pragma once
// Where respondents' files and recordings live. PgBlobStore keeps them in PostgreSQL in
// chunks; unit tests use an in-memory fake. Every read names the workspace, so that no call
// can reach another workspace's content.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feedback::responses {

// Stored chunks are at most this long.
inline constexpr std::size_t kBlobChunkBytes = 256 * 1024;

struct BlobInfo {
  std::string uuid;
  std::string workspace_uuid;
  std::string content_type;
  std::string file_name;
  int64_t size_bytes = 0;
  // Lowercase hex SHA-256 of the content.
  std::string sha256 = {};
  // The response it was uploaded to (blob_collector.h).
  std::string response_uuid = {};
};

// A recording's transcription to be made (transcription_jobs.h).
struct TranscriptionJob {
  BlobInfo blob;
  std::string response_uuid;
  std::string field_key;
  // The serialised IntakeLink the answer was saved under.
  std::string link;
  int attempts = 0;
  // Once transcribed here, to a speech server (TRANSCRIBER=openai on the uploading replica).
  bool speech_server = false;
};

class BlobStore {
 public:
  virtual ~BlobStore() = default;
  // Stores `content` under `info` (its size and hash set from the content), in chunks, and
  // when `transcribe` is given, the recording's transcription job with it: due a little
  // later, so that it is done even should the answer's save never say it may start now.
  virtual void put(const BlobInfo& info, const std::vector<std::string_view>& content,
                   const TranscriptionJob* transcribe = nullptr) = 0;
  // The answer holding the recording is saved: its transcription is due now.
  virtual void transcribeNow(const std::string& workspace_uuid, const std::string& uuid) = 0;
  // The workspace's blob, its content given to `chunk` in order; nullopt when there is none.
  virtual std::optional<BlobInfo> read(const std::string& workspace_uuid, const std::string& uuid,
                                       const std::function<void(std::string_view)>& chunk) = 0;
  virtual void remove(const std::string& workspace_uuid, const std::string& uuid) = 0;

  // The blob's content in its stored chunks (a recording to decode); nullopt when there is none.
  std::optional<std::vector<std::string>> readAll(const std::string& workspace_uuid,
                                                  const std::string& uuid) {
    std::vector<std::string> parts;
    if (!read(workspace_uuid, uuid, [&](std::string_view chunk) { parts.emplace_back(chunk); })) {
      return std::nullopt;
    }
    return parts;
  }
};

}  // namespace feedback::responses
