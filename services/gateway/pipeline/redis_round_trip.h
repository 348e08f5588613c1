#pragma once
// A request's one Redis round trip (docs/architecture.md "The gateway's pipeline"). What the
// request needs from Redis before its handler runs goes out together, on its loop's
// connection: the route's reads (its prefetch, always first: its i-th command is slot i), the
// rate limit's admission, and on keyed routes the API key's record (read by the admission
// script when rate limits are on, else by a GET). Each part adds its commands while the trip
// is assembled, keeps the slots they got, and reads its own answers once it is back.
// CredentialsStage assembles and sends it (on keyed routes through the KeyAuthenticator,
// which reads the record). What else goes to Redis on the way to the handler is a step of its
// own: a POST's Idempotency-Key claim (IdempotencyStage, which must follow the rate limit and
// the scope), and a count for the rare request the trip could not settle (RateLimitStage, for
// a key not cached yet).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/redis/redis_client.h"

namespace feedback::gateway {

using RedisCommand = std::vector<std::string>;
using RedisReplies = std::vector<std::optional<RedisReply>>;

class RedisRoundTrip {
 public:
  using Slot = std::size_t;
  using Clock = std::chrono::steady_clock;

  // The route's reads (its prefetch), before anything else is added: the i-th is slot i.
  void addRouteReads(std::vector<RedisCommand> commands);
  // The answer to the route's i-th read; nullopt past them (or unanswered).
  const std::optional<RedisReply>& routeRead(std::size_t i) const;
  std::size_t routeReads() const { return route_reads_; }
  // Adds `command` to the trip; its answer will be at the slot returned.
  Slot add(RedisCommand command);
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The command at `slot`, until the trip is sent.
  const RedisCommand& command(Slot slot) const { return commands_[slot]; }
  // The key a GET at `slot` read, also once sent: what tells whose answer it is. Empty for
  // other commands (kept for GETs alone: a request's scripts are told apart by their slot).
  const std::string& keyRead(Slot slot) const;

  // The commands to send (moved out: the client keeps them for a script's retry), stamped
  // with the epoch of the connection they go on (RedisClient::connectionEpoch) and the time
  // just before.
  std::vector<RedisCommand> send(uint64_t epoch);
  // Their answers, in order (those missing: unanswered), and the connection's epoch once
  // they came.
  void receive(RedisReplies replies, uint64_t epoch);

  // The answer at `slot`; nullopt when Redis did not answer, or the trip was not made.
  const std::optional<RedisReply>& answer(Slot slot) const;
  std::optional<RedisReply> take(Slot slot);
  // The epoch of the Redis that answered every command: the same before they were sent and
  // after they were answered. 0 when it changed meanwhile (the answers may come from either
  // connection: nothing read is kept) or the trip was not made.
  uint64_t epoch() const { return epoch_; }
  // When it was sent: what is kept from its answers is dated no later than this.
  Clock::time_point sentAt() const { return sent_at_; }

 private:
  std::vector<RedisCommand> commands_;
  std::size_t size_ = 0;
  std::size_t route_reads_ = 0;
  std::vector<std::string> keys_read_;  // once sent
  RedisReplies answers_;
  uint64_t epoch_ = 0;
  Clock::time_point sent_at_ = {};
};

}  // namespace feedback::gateway
