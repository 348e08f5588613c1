#pragma once
// The callers that API-key records hold (common/redis/key_cache.h), parsed once per loop: a
// key's record is read for each of its requests, and parsing it again (a protobuf with a
// string per scope) cost a score of allocations a request. Each loop keeps its own, so no
// lock is taken; a caller is immutable and shared by the requests that use it.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/asio/io_threads.h"
#include "feedback/common/v1/common.pb.h"

namespace feedback::gateway {

using CallerPtr = std::shared_ptr<const feedback::common::v1::Caller>;

class CallerRecords {
 public:
  // Records kept per loop; past it a loop starts afresh (keys in use come back at once).
  static constexpr std::size_t kMaxPerLoop = 1024;

  // `loops`: whose threads keep records; null, or a caller on none of them, parses each time.
  explicit CallerRecords(IoThreads* loops);
  // The caller the record holds; null when it is not a key record.
  CallerPtr parse(std::string_view record);

 private:
  struct TransparentHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  using Cache = std::unordered_map<std::string, CallerPtr, TransparentHash, std::equal_to<>>;

  IoThreads* loops_;
  std::vector<Cache> by_loop_;
};

}  // namespace feedback::gateway
