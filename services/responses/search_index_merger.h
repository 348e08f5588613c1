#pragma once
// Keeps the search index's pending list short. New rows enter the search keys' index through a
// pending list (GIN "fastupdate"); the statement that takes the list past
// gin_pending_list_limit must merge it into the index itself, and the batch of submissions it
// writes then waits 50 to 100 ms: that was W4's p99. Merged every second on a connection of
// its own, the list (allowed 32 MB, responses migration 010) never gets there, and searches,
// which read all of it, stay fast. A merge costs per key as well as per entry: a second's
// entries merged at once cost half as much as in five merges. Every replica runs one; merges
// of the same index wait for each other.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"

namespace feedback::responses {

class SearchIndexMerger {
 public:
  SearchIndexMerger(const std::string& database_url, Counters& counters,
                    std::chrono::milliseconds every);
  ~SearchIndexMerger();
  SearchIndexMerger(const SearchIndexMerger&) = delete;
  SearchIndexMerger& operator=(const SearchIndexMerger&) = delete;

 private:
  void tick();
  void merge(PgSession& session);

  Counters& counters_;
  const std::chrono::milliseconds every_;
  // One connection; a merge still running when the next is due makes that one wait.
  PgPool connection_;
  // Only the connection's thread uses these.
  bool failing_ = false;
  std::chrono::steady_clock::time_point retry_at_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread ticker_;
};

}  // namespace feedback::responses
