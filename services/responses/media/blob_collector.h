#pragma once
// Deletes blobs no answer holds: a file or recording replaced by another answer, or stored by
// an upload whose answer was never saved (its request failed, or the process died between the
// two). Every few minutes, blobs older than an hour that are not known to be kept are looked
// at in batches: one a completed response holds is marked kept and never looked at again; one
// its response does not hold (or whose response is gone) is deleted; one an open response holds
// waits. Any number of replicas may run it: each batch is claimed with SKIP LOCKED.

#include <chrono>
#include <string>

#include "common/core/counters.h"
#include "common/service/periodic_task.h"

namespace feedback::responses {

class BlobCollector {
 public:
  BlobCollector(std::string database_url, Counters& counters,
                std::chrono::milliseconds interval = std::chrono::minutes(10));

  // One pass over what is due; the number of blobs deleted. Throws on a database failure.
  int64_t collect();

 private:
  const std::string database_url_;
  Counters& counters_;
  service::PeriodicTask task_;
};

}  // namespace feedback::responses
