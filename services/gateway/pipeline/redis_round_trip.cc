#include "services/gateway/pipeline/redis_round_trip.h"

namespace feedback::gateway {

void RedisRoundTrip::addRouteReads(std::vector<RedisCommand> commands) {
  for (auto& command : commands) add(std::move(command));
  route_reads_ = size_;
}

const std::optional<RedisReply>& RedisRoundTrip::routeRead(std::size_t i) const {
  static const std::optional<RedisReply> kNone;
  return i < route_reads_ ? answer(i) : kNone;
}

RedisRoundTrip::Slot RedisRoundTrip::add(RedisCommand command) {
  commands_.push_back(std::move(command));
  return size_++;
}

namespace {

bool isGet(const RedisCommand& command) {
  return command.size() == 2 && command[0] == "GET";
}

}  // namespace

const std::string& RedisRoundTrip::keyRead(Slot slot) const {
  static const std::string kNone;
  if (sent_at_ != Clock::time_point{}) return slot < keys_read_.size() ? keys_read_[slot] : kNone;
  return slot < commands_.size() && isGet(commands_[slot]) ? commands_[slot][1] : kNone;
}

std::vector<RedisCommand> RedisRoundTrip::send(uint64_t epoch) {
  epoch_ = epoch;
  sent_at_ = Clock::now();
  // Only a trip with a GET keeps anything: most requests' trips are scripts alone.
  for (std::size_t i = 0; i < commands_.size(); ++i) {
    if (!isGet(commands_[i])) continue;
    keys_read_.resize(commands_.size());
    keys_read_[i] = commands_[i][1];
  }
  return std::move(commands_);
}

void RedisRoundTrip::receive(RedisReplies replies, uint64_t epoch) {
  answers_ = std::move(replies);
  answers_.resize(size_);
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
