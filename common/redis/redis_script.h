#pragma once
// A Lua script called by its SHA-1 (EVALSHA), so that each call sends a few bytes rather than
// the script and Redis finds it without hashing it again. The client that calls it must
// know its text (RedisClient::addScript), to load it on every connection and after NOSCRIPT.

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/crypto.h"

namespace feedback {

class RedisScript {
 public:
  explicit RedisScript(std::string_view text) : text_(text), sha_(crypto::sha1Hex(text)) {}

  std::string_view text() const { return text_; }
  const std::string& sha() const { return sha_; }
  // {"EVALSHA", sha, number of keys, keys..., args...}.
  std::vector<std::string> call(std::initializer_list<std::string_view> keys,
                                std::initializer_list<std::string_view> args) const {
    std::vector<std::string> command;
    command.reserve(3 + keys.size() + args.size());
    command.emplace_back("EVALSHA");
    command.push_back(sha_);
    command.push_back(std::to_string(keys.size()));
    for (auto key : keys) command.emplace_back(key);
    for (auto arg : args) command.emplace_back(arg);
    return command;
  }

 private:
  std::string_view text_;
  std::string sha_;
};

}  // namespace feedback
