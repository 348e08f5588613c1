#pragma once
// An asynchronous Redis client: hiredis's async context driven by Asio. Standalone, one
// connection on a thread of its own; on IoThreads, one connection per loop, so that a command
// sent from a loop's thread is written, and answered, on that thread without a hand-off.
// Commands are pipelined on a connection; it reconnects by itself, and a command not answered
// within the timeout fails (and drops the connection) instead of hanging.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feedback {

class IoThreads;

struct RedisReply {
  enum class Type { kNil, kString, kStatus, kInteger, kArray, kError };
  Type type = Type::kNil;
  std::string str = {};
  long long integer = 0;
  std::vector<RedisReply> elements = {};
};

class RedisClient {
 public:
  // nullopt: no answer (Redis unreachable, connection lost or command timed out).
  using Callback = std::function<void(std::optional<RedisReply>)>;

  RedisClient(std::string host, int port,
              std::chrono::milliseconds timeout = std::chrono::milliseconds(500));
  // A connection on each of `threads`' loops. Destroyed while they run, or after they stopped.
  RedisClient(IoThreads& threads, std::string host, int port,
              std::chrono::milliseconds timeout = std::chrono::milliseconds(500));
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Thread-safe. The callback runs on the thread of the connection that sent the command (on
  // IoThreads: the caller's loop, or the first loop for a caller on no loop) and must not block.
  void command(std::vector<std::string> args, Callback callback);
  // Sends every command at once (one round trip); the callback gets their answers in order.
  using PipelineCallback = std::function<void(std::vector<std::optional<RedisReply>>)>;
  void pipeline(std::vector<std::vector<std::string>> commands, PipelineCallback callback);
  // Delivers every message published on `channel` to `on_message` (on the first connection),
  // re-subscribing after each reconnection. Messages published while disconnected are lost.
  // A client that subscribes should be used for nothing else.
  void subscribe(std::string channel, std::function<void(std::string)> on_message);
  // Makes `text` callable as {"EVALSHA", RedisScript(text).sha(), ...}: it is loaded on every
  // connection before any other command, and an EVALSHA that Redis answers NOSCRIPT (its
  // script cache flushed meanwhile) is sent again as EVAL.
  void addScript(std::string_view text);
  // For worker threads only (never an I/O thread): waits for the answer.
  std::optional<RedisReply> commandSync(std::vector<std::string> args);
  // Every connection is.
  bool connected() const;
  // True while every channel subscribed to is confirmed by Redis on the current connection:
  // from then until the connection is lost, no message published on them is missed.
  bool subscribed() const;
  // How many connections the client has made so far, on all its loops: it changes whenever
  // Redis may have restarted (and lost or rolled back data), so values read before must not be
  // trusted after. A read is of one Redis run when this is the same before it is sent and
  // after its answer: a connection made meanwhile, on any loop, may be to another.
  uint64_t connectionEpoch() const;

  // Opaque; public only so that the implementation's connection type can name it.
  struct Impl;

 private:
  struct OwnLoop;
  void start();
  Impl& here() const;

  IoThreads* threads_ = nullptr;
  std::unique_ptr<OwnLoop> own_loop_;
  std::vector<std::shared_ptr<Impl>> impls_;
};

}  // namespace feedback
