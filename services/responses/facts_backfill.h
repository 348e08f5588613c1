#pragma once
// Responses completed before summaries existed get their summary facts (summary_facts.h)
// once, in the background at start-up: the row 'response_facts' of responses.backfills says
// whether that is done (the migration sets it done on a database without completed
// responses). One replica works at a time (an advisory lock); the others wait and see it done.
// Batches go in uuid order, so that each reads only what it writes.

#include <string>

#include "common/core/counters.h"
#include "common/service/periodic_task.h"

namespace feedback::responses {

class FactsBackfill {
 public:
  FactsBackfill(std::string database_url, Counters& counters);

 private:
  // Every 10 s until done (by this replica or another); nothing once it is.
  void tryOnce();
  // True once the backfill is done.
  bool attempt();

  const std::string database_url_;
  Counters& counters_;
  bool done_ = false;  // only the task's thread uses it
  service::PeriodicTask task_;
};

}  // namespace feedback::responses
