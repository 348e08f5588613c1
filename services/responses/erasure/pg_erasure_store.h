#pragma once
// ErasureStore on PostgreSQL, through prepared statements. A batch is one transaction: the
// responses are locked first, then their events leave the outbox, the webhooks service's
// function (webhooks.erase_response_events, its migration 007) cancels their sends and drops
// their payloads, and the rows go, all committed together.

#include <pqxx/connection>

#include "services/responses/erasure/erasure_store.h"

namespace feedback::responses {

class PgErasureStore final : public ErasureStore {
 public:
  explicit PgErasureStore(pqxx::connection& connection) : connection_(connection) {}
  // The statements of erasures, on any connection of the service (deletions run on the API's
  // pool, whose sessions time their statements out as PgResponsesStore::prepare sets them).
  static void prepare(pqxx::connection& connection);
  // prepare() for connections of their own (respondents' erasures), with those timeouts.
  static void prepareSession(pqxx::connection& connection);
  // prepareSession() plus retention's reads (the tokens service's workspaces).
  static void prepareRetention(pqxx::connection& connection);

  std::vector<ErasedResponse> eraseBatch(
      const ErasureSelection& selection, int limit,
      const std::function<void(const std::vector<ErasedResponse>&)>& locked) override;
  std::vector<Retention> retentions() override;
  std::optional<int64_t> oldestResponseMicros(const std::string& workspace_uuid) override;

 private:
  pqxx::connection& connection_;
};

}  // namespace feedback::responses
