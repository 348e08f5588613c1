#pragma once
// The callers that API-key records hold (common/redis/key_cache.h), parsed once per loop: a
// key's record is read for each of its requests, and parsing it again (a protobuf with a
// string per scope) cost a score of allocations a request. Each loop keeps its own, so no
// lock is taken; a caller is immutable and shared by the requests that use it.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/asio/io_threads.h"
#include "common/core/text_map.h"
#include "feedback/common/v1/common.pb.h"

namespace feedback::gateway {

using CallerPtr = std::shared_ptr<const feedback::common::v1::Caller>;

// The caller of a public route: only the workspace its host names.
inline CallerPtr callerOfWorkspace(feedback::common::v1::Workspace workspace) {
  auto caller = std::make_shared<feedback::common::v1::Caller>();
  *caller->mutable_workspace() = std::move(workspace);
  return caller;
}

class CallerRecords {
 public:
  // Records kept per loop; past it a loop starts afresh (keys in use come back at once).
  static constexpr std::size_t kMaxPerLoop = 1024;

  // `loops`: whose threads keep records; null, or a caller on none of them, parses each time.
  explicit CallerRecords(IoThreads* loops);
  // The caller the record holds; null when it is not a key record.
  CallerPtr parse(std::string_view record);

  using Clock = std::chrono::steady_clock;
  // The key `key_hash` was found valid now, for `caller` (by the calling loop's lookup).
  void accepted(std::string_view key_hash, CallerPtr caller, Clock::time_point now);
  // The caller the calling loop last found `key_hash` valid for, when that was no longer ago
  // than `max_age`; else null.
  CallerPtr recent(std::string_view key_hash, Clock::time_point now, Clock::duration max_age);

 private:
  template <class Value>
  using Map = TextMap<Value>;
  struct Acceptance {
    CallerPtr caller;
    Clock::time_point at;
  };
  struct Loop {
    Map<CallerPtr> by_record;
    Map<Acceptance> by_key;
  };
  // The calling loop's, or null on a thread that runs none.
  Loop* here();

  IoThreads* loops_;
  std::vector<Loop> by_loop_;
};

}  // namespace feedback::gateway
