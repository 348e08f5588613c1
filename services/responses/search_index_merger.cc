#include "services/responses/search_index_merger.h"

#include <pqxx/except>

#include "common/core/log.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

constexpr std::chrono::seconds kRetryAfterFailure{5};

}  // namespace

SearchIndexMerger::SearchIndexMerger(const std::string& database_url, Counters& counters,
                                     std::chrono::milliseconds every)
    : counters_(counters),
      every_(every),
      connection_(database_url, 1, 1, &PgResponsesStore::prepareSearchIndexMerge),
      ticker_([this] { tick(); }) {}

SearchIndexMerger::~SearchIndexMerger() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  connection_.stop();
}

void SearchIndexMerger::tick() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, every_, [this] { return stopping_; })) {
    // Refused while the previous merge is still queued: this one is not needed.
    connection_.trySubmit([this](PgSession& session) { merge(session); });
  }
}

void SearchIndexMerger::merge(PgSession& session) {
  // While PostgreSQL is unreachable, a try every few seconds is enough (and logs less).
  const auto now = std::chrono::steady_clock::now();
  if (now < retry_at_) return;
  try {
    const int64_t pages = PgResponsesStore(session.connection()).mergeSearchIndex();
    counters_.increment("search_index_merges_total");
    counters_.increment("search_index_merged_pages_total", static_cast<uint64_t>(pages));
    if (failing_) log::info("search_index_merging_again", {});
    failing_ = false;
  } catch (const std::exception& e) {
    if (dynamic_cast<const pqxx::broken_connection*>(&e)) session.reset();
    retry_at_ = now + kRetryAfterFailure;
    counters_.increment("search_index_merge_failures_total");
    // Once per spell of failures: submissions then merge the list themselves, as before.
    if (!failing_) log::warn("search_index_merge_failed", {{"error", e.what()}});
    failing_ = true;
  }
}

}  // namespace feedback::responses
