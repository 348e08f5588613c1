#pragma once
// What erasing respondents' data needs from storage (docs/api.md "Erasure and retention").
// PgErasureStore implements it with SQL; unit tests use an in-memory fake.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace feedback::responses {

// Which of a workspace's responses an erasure takes. Exactly one of the three is set.
struct ErasureSelection {
  std::string workspace_uuid;
  // One response, under this link.
  std::optional<std::string> response_uuid = {};
  std::string link_uuid = {};
  // Every response with this email, compared case-insensitively (as PostgreSQL's lower()).
  std::optional<std::string> email = {};
  // Every response whose time (its submission's, else its start's) is before this
  // (microseconds since the epoch). Rows another erasure holds are skipped, not waited for.
  std::optional<int64_t> older_than_micros = {};
};

// A response as it was erased.
struct ErasedResponse {
  std::string uuid;
  std::string link_uuid;
};

// A workspace whose responses are kept for a number of days.
struct Retention {
  std::string workspace_uuid;
  int days = 0;
};

class ErasureStore {
 public:
  virtual ~ErasureStore() = default;

  // One transaction: locks up to `limit` responses the selection names, hands them to
  // `locked` (which may throw, undoing everything), then deletes them with everything that is
  // theirs (answers, follow-ups and insights in the row, summary facts, insight jobs, files and
  // recordings, events not yet fanned out, and, through the webhooks service's function, the
  // sends of their events not yet made and their events' payloads) and commits. Answers what
  // it erased; none when the selection names nothing (left).
  virtual std::vector<ErasedResponse> eraseBatch(
      const ErasureSelection& selection, int limit,
      const std::function<void(const std::vector<ErasedResponse>&)>& locked) = 0;
  // The workspaces that keep responses for a number of days.
  virtual std::vector<Retention> retentions() = 0;
  // The time of the workspace's oldest response (microseconds since the epoch); nullopt when
  // it has none.
  virtual std::optional<int64_t> oldestResponseMicros(const std::string& workspace_uuid) = 0;
};

}  // namespace feedback::responses
