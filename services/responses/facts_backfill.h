#pragma once
// Responses completed before summaries existed get their summary facts (summary_facts.h)
// once, in the background at start-up: the row 'response_facts' of responses.backfills says
// whether that is done (the migration sets it done on a database without completed
// responses). One replica works at a time (an advisory lock); the others wait and see it done.
// Batches go in uuid order, so that each reads only what it writes.

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "common/core/counters.h"

namespace feedback::responses {

class FactsBackfill {
 public:
  FactsBackfill(std::string database_url, Counters& counters);
  ~FactsBackfill();
  FactsBackfill(const FactsBackfill&) = delete;
  FactsBackfill& operator=(const FactsBackfill&) = delete;

 private:
  void run();
  // True once the backfill is done (by this replica or another).
  bool attempt();
  bool sleep(std::chrono::seconds how_long);

  const std::string database_url_;
  Counters& counters_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace feedback::responses
