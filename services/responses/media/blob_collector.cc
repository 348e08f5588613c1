#include "services/responses/media/blob_collector.h"

#include <pqxx/pqxx>

#include "common/core/log.h"
#include "common/pg/connect.h"

namespace feedback::responses {
namespace {

constexpr int kBatch = 500;

// One batch, in one statement: the oldest unchecked blobs past the hour, each with whether its
// response holds it (its marker is in the answers) and whether that response is completed.
constexpr const char* kCollectSql =
    "WITH due AS ("
    "  SELECT b.uuid, b.response_uuid FROM responses.blobs b"
    "  WHERE NOT b.kept AND b.created_at < clock_timestamp() - interval '1 hour'"
    "    AND b.transcription_due_at IS NULL"
    "  ORDER BY b.created_at LIMIT $1 FOR UPDATE SKIP LOCKED),"
    " judged AS ("
    "  SELECT d.uuid, r.status,"
    "    r.uuid IS NOT NULL AND strpos(r.answers, 'media:' || d.uuid::text) > 0 AS held"
    "  FROM due d LEFT JOIN responses.responses r ON r.uuid = d.response_uuid),"
    " marked AS ("
    "  UPDATE responses.blobs SET kept = true WHERE uuid IN"
    "    (SELECT uuid FROM judged WHERE held AND status = 'completed') RETURNING 1),"
    " deleted AS ("
    "  DELETE FROM responses.blobs WHERE uuid IN (SELECT uuid FROM judged WHERE NOT held)"
    "  RETURNING 1)"
    " SELECT (SELECT count(*) FROM deleted), (SELECT count(*) FROM marked),"
    "  (SELECT count(*) FROM due)";

}  // namespace

BlobCollector::BlobCollector(std::string database_url, Counters& counters,
                             std::chrono::milliseconds interval)
    : database_url_(std::move(database_url)), counters_(counters), task_(interval, [this] {
        try {
          collect();
        } catch (const std::exception& e) {
          log::warn("blob_collection_failed", {{"error", e.what()}});
        }
      }) {}

int64_t BlobCollector::collect() {
  auto connection = pg::connect(database_url_);
  auto& c = *connection;
  int64_t deleted = 0;
  while (!task_.stopping()) {
    pqxx::work tx(c);
    auto row = tx.exec_params1(kCollectSql, kBatch);
    tx.commit();
    deleted += row[0].as<int64_t>();
    counters_.increment("blobs_deleted_total", row[0].as<uint64_t>());
    // Blobs held by open responses stay due; a batch of only those would repeat for ever.
    if (row[2].as<int>() < kBatch || row[0].as<int>() + row[1].as<int>() == 0) break;
  }
  if (deleted) log::info("blobs_collected", {{"deleted", std::to_string(deleted)}});
  return deleted;
}

}  // namespace feedback::responses
