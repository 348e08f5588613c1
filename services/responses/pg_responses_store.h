#pragma once

#include <map>
#include <pqxx/connection>
#include <pqxx/nontransaction>

#include "services/responses/responses_store.h"

namespace feedback::responses {

// ResponsesStore on PostgreSQL (schema `responses`), through prepared statements. A new
// response, its events and its count are one statement (committed on its own); a change to a
// started response is one transaction.
class PgResponsesStore final : public ResponsesStore {
 public:
  explicit PgResponsesStore(pqxx::connection& connection) : connection_(connection) {}
  static void prepare(pqxx::connection& connection);
  // The export pool's connections (forEachResponse): a FETCH may take a minute; a client may
  // keep its export's transaction waiting at most kExportIdleLimit between two chunks.
  static void prepareExports(pqxx::connection& connection);
  // The one statement of the connection that merges the search index (SearchIndexMerger);
  // prepare() leaves it out.
  static void prepareSearchIndexMerge(pqxx::connection& connection);

  void insertResponses(const std::vector<const NewResponse*>& responses) override;
  bool updateResponse(const std::string& workspace_uuid, const std::string& response_uuid,
                      const std::function<std::optional<Change>(StoredResponse&)>& apply) override;
  std::optional<StoredResponse> findResponse(const std::string& workspace_uuid,
                                             const std::string& response_uuid) override;
  Count countResponses(const ResponseFilter& filter) override;
  Rows listResponses(const ResponseFilter& filter, Ordering ordering, int64_t offset,
                     int limit) override;
  Rows listAfter(const ResponseFilter& filter, Ordering ordering, const Anchor& anchor,
                 int64_t skip, int limit) override;
  CountedPage listCounted(const ResponseFilter& filter, Ordering ordering, int64_t offset,
                          int limit) override;
  std::map<std::string, int64_t> completedCounts(
      const std::string& workspace_uuid, const std::vector<std::string>& link_uuids) override;
  void forEachSummaryFacts(const std::string& workspace_uuid, const std::string& link_uuid,
                           std::optional<int64_t> since, std::optional<int64_t> until,
                           const std::function<void(const FactsLayouts&)>& layouts,
                           const std::function<void(const FactsBatch&)>& each) override;
  int64_t startedCount(const std::string& workspace_uuid, const std::string& link_uuid,
                       std::optional<int64_t> since, std::optional<int64_t> until) override;
  DayCounts completedPerDay(const std::string& workspace_uuid, const std::string& link_uuid,
                            std::optional<int64_t> since, std::optional<int64_t> until) override;
  void forEachResponse(const ResponseFilter& filter, Ordering ordering, int batch,
                       const std::function<bool(ResponseBatch&)>& each) override;
  // Merges the search index's pending list into the index (SearchIndexMerger); returns the
  // pending-list pages it emptied. Only the index's owner may.
  int64_t mergeSearchIndex();

 private:
  // By (link uuid, layout id).
  using LayoutsToWrite = std::map<std::pair<std::string, std::string>, const FactsLayout*>;
  // Autocommitted (`tx` is no transaction): the layouts written are marked so at once.
  static void insertFactsLayouts(pqxx::nontransaction& tx,
                                 const std::vector<const NewResponse*>& responses);
  static void insertFactsLayouts(pqxx::transaction_base& tx, const LayoutsToWrite& layouts);

  pqxx::connection& connection_;
};

// Rows of link_counts per link: writes into one link spread over them.
inline constexpr int kCountShards = 16;
// The row of a link's counts this thread writes (each worker thread has one connection), so
// that concurrent writers rarely wait for each other's row lock: every writer of link_counts
// (submissions, erasures) takes its row from here.
int countShard();

// What `search` looks in: the email, every text value (strings, also inside lists) and every
// transcription, one per line. U+0000 (which text cannot hold) becomes a space.
std::string searchTextOf(const StoredResponse& stored);

}  // namespace feedback::responses
