#include "services/gateway/pipeline/redis_round_trip.h"

namespace feedback::gateway {

RedisRoundTrip::Slot RedisRoundTrip::add(RedisCommand command) {
  commands_.push_back(std::move(command));
  return commands_.size() - 1;
}

std::vector<RedisCommand> RedisRoundTrip::send(uint64_t epoch) {
  epoch_ = epoch;
  sent_at_ = Clock::now();
  return commands_;
}

void RedisRoundTrip::receive(RedisReplies replies, uint64_t epoch) {
  answers_ = std::move(replies);
  answers_.resize(commands_.size());
  if (epoch != epoch_) epoch_ = 0;
}

const std::optional<RedisReply>& RedisRoundTrip::answer(Slot slot) const {
  static const std::optional<RedisReply> kNone;
  return slot < answers_.size() ? answers_[slot] : kNone;
}

std::optional<RedisReply> RedisRoundTrip::take(Slot slot) {
  return slot < answers_.size() ? std::move(answers_[slot]) : std::nullopt;
}

}  // namespace feedback::gateway
