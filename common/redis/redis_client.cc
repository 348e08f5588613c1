#include "common/redis/redis_client.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <future>
#include <thread>
#include <unordered_map>

#include "common/asio/io_threads.h"
#include "common/core/crypto.h"
#include "common/core/log.h"

namespace asio = boost::asio;

namespace feedback {
namespace {

RedisReply convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = RedisReply::Type::kString;
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::Type::kStatus;
      break;
    case REDIS_REPLY_ERROR:
      out.type = RedisReply::Type::kError;
      break;
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      break;
    default:
      out.type = RedisReply::Type::kNil;
      break;
  }
  if (r->str) out.str.assign(r->str, r->len);
  out.integer = r->integer;
  for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
  return out;
}

}  // namespace

// One hiredis connection; handlers hold it by shared_ptr so that a connection replaced
// after a failure stays valid until its last pending wait has been cancelled.
struct RedisConnection : std::enable_shared_from_this<RedisConnection> {
  explicit RedisConnection(asio::io_context& io) : descriptor(io) {}
  redisAsyncContext* context = nullptr;
  asio::posix::stream_descriptor descriptor;
  bool want_read = false, want_write = false, reading = false, writing = false;
  struct RedisClient::Impl* owner = nullptr;
};

// One connection's state, on the one loop that drives it.
struct RedisClient::Impl : std::enable_shared_from_this<RedisClient::Impl> {
  Impl(asio::io_context& loop, std::string h, int p, std::chrono::milliseconds t,
       std::shared_ptr<std::atomic<uint64_t>> connections)
      : host(std::move(h)),
        port(p),
        timeout(t),
        io(loop),
        connections_counted(std::move(connections)),
        reconnect_timer(io),
        watchdog(io) {}

  std::string host;
  int port;
  std::chrono::milliseconds timeout;
  asio::io_context& io;
  // How many connections the client (all its loops) has made (connectionEpoch).
  std::shared_ptr<std::atomic<uint64_t>> connections_counted;
  asio::steady_timer reconnect_timer;
  asio::steady_timer watchdog;
  std::shared_ptr<RedisConnection> connection;
  // Send times of unanswered commands; Redis answers in order, so the front is the oldest.
  std::deque<std::chrono::steady_clock::time_point> pending;
  std::atomic<bool> is_connected{false};
  bool stopping = false;
  // Owned here and never freed before the client: hiredis keeps pointers to them.
  struct Subscription {
    std::string channel;
    std::function<void(std::string)> on_message;
  };
  std::vector<std::unique_ptr<Subscription>> subscriptions;
  std::size_t confirmed_subscriptions = 0;
  std::atomic<bool> is_subscribed{false};
  // Scripts by SHA-1, loaded on each connection and resent as EVAL after NOSCRIPT.
  std::unordered_map<std::string, std::string> scripts;

  static RedisConnection* of(void* privdata) { return static_cast<RedisConnection*>(privdata); }

  static void armRead(const std::shared_ptr<RedisConnection>& c) {
    if (!c->context || !c->want_read || c->reading) return;
    c->reading = true;
    c->descriptor.async_wait(asio::posix::stream_descriptor::wait_read,
                             [c](boost::system::error_code ec) {
                               c->reading = false;
                               if (ec || !c->context) return;
                               redisAsyncHandleRead(c->context);
                               armRead(c);
                             });
  }

  static void armWrite(const std::shared_ptr<RedisConnection>& c) {
    if (!c->context || !c->want_write || c->writing) return;
    c->writing = true;
    c->descriptor.async_wait(asio::posix::stream_descriptor::wait_write,
                             [c](boost::system::error_code ec) {
                               c->writing = false;
                               if (ec || !c->context) return;
                               redisAsyncHandleWrite(c->context);
                               armWrite(c);
                             });
  }

  static void onAddRead(void* p) {
    of(p)->want_read = true;
    armRead(of(p)->shared_from_this());
  }
  static void onDelRead(void* p) { of(p)->want_read = false; }
  static void onAddWrite(void* p) {
    of(p)->want_write = true;
    armWrite(of(p)->shared_from_this());
  }
  static void onDelWrite(void* p) { of(p)->want_write = false; }
  static void onCleanup(void* p) {
    RedisConnection* c = of(p);
    c->want_read = c->want_write = false;
    c->context = nullptr;
    boost::system::error_code ignored;
    c->descriptor.cancel(ignored);
    // hiredis closes the socket itself.
    if (c->descriptor.is_open()) c->descriptor.release();
  }

  static void onMessage(redisAsyncContext* ac, void* reply, void* privdata) {
    // Called for the subscription's confirmation, for every message, and with null when the
    // connection goes away.
    auto* r = static_cast<redisReply*>(reply);
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 3) return;
    std::string_view kind(r->element[0]->str, r->element[0]->len);
    if (kind == "subscribe") {
      auto* owner = of(ac->ev.data)->owner;
      if (++owner->confirmed_subscriptions == owner->subscriptions.size()) {
        owner->is_subscribed = true;
      }
      return;
    }
    if (kind != "message") return;
    static_cast<Subscription*>(privdata)->on_message(
        std::string(r->element[2]->str, r->element[2]->len));
  }

  void sendSubscribe(Subscription& subscription) {
    if (!connection || !connection->context) return;  // subscribed on (re)connection
    const char* argv[] = {"SUBSCRIBE", subscription.channel.c_str()};
    size_t lengths[] = {9, subscription.channel.size()};
    redisAsyncCommandArgv(connection->context, &onMessage, &subscription, 2, argv, lengths);
  }

  static void onConnect(const redisAsyncContext* ac, int status) {
    auto* c = of(ac->ev.data);
    if (status == REDIS_OK) {
      c->owner->is_connected = true;
      ++*c->owner->connections_counted;
      log::info("redis_connected", {{"host", c->owner->host}, {"port", c->owner->port}});
      c->owner->confirmed_subscriptions = 0;
      for (const auto& [sha, text] : c->owner->scripts) c->owner->load(text);
      for (auto& subscription : c->owner->subscriptions) c->owner->sendSubscribe(*subscription);
    } else {
      log::warn("redis_connect_failed", {{"error", ac->errstr}});
      c->owner->lost(c);
    }
  }

  static void onDisconnect(const redisAsyncContext* ac, int status) {
    auto* c = of(ac->ev.data);
    if (status != REDIS_OK) log::warn("redis_disconnected", {{"error", ac->errstr}});
    c->owner->lost(c);
  }

  static void onReply(redisAsyncContext* ac, void* reply, void* privdata) {
    std::unique_ptr<Callback> callback(static_cast<Callback*>(privdata));
    auto* owner = of(ac->ev.data)->owner;
    if (!owner->pending.empty()) owner->pending.pop_front();
    if (reply) {
      (*callback)(convert(static_cast<redisReply*>(reply)));
    } else {
      (*callback)(std::nullopt);
    }
  }

  void lost(RedisConnection* c) {
    if (connection.get() != c) return;
    is_connected = false;
    is_subscribed = false;
    connection.reset();
    scheduleReconnect();
  }

  void scheduleReconnect() {
    if (stopping) return;
    reconnect_timer.expires_after(std::chrono::milliseconds(250));
    reconnect_timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) self->connect();
    });
  }

  void connect() {
    if (stopping) return;
    redisAsyncContext* ac = redisAsyncConnect(host.c_str(), port);
    if (!ac || ac->err) {
      log::warn("redis_connect_failed", {{"error", ac ? ac->errstr : "allocation failed"}});
      if (ac) redisAsyncFree(ac);
      scheduleReconnect();
      return;
    }
    auto c = std::make_shared<RedisConnection>(io);
    c->owner = this;
    c->context = ac;
    c->descriptor.assign(ac->c.fd);
    ac->ev.data = c.get();
    ac->ev.addRead = &onAddRead;
    ac->ev.delRead = &onDelRead;
    ac->ev.addWrite = &onAddWrite;
    ac->ev.delWrite = &onDelWrite;
    ac->ev.cleanup = &onCleanup;
    connection = c;
    redisAsyncSetConnectCallback(ac, &onConnect);
    redisAsyncSetDisconnectCallback(ac, &onDisconnect);
    // A non-blocking connect completes when the socket becomes writable.
    onAddWrite(c.get());
  }

  void watch() {
    watchdog.expires_after(std::chrono::milliseconds(50));
    watchdog.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->stopping) return;
      if (!self->pending.empty() &&
          std::chrono::steady_clock::now() - self->pending.front() > self->timeout &&
          self->connection && self->connection->context) {
        log::warn("redis_timeout", {{"pending", static_cast<long long>(self->pending.size())}});
        // Frees the context at once: every pending callback gets a null reply.
        redisAsyncFree(self->connection->context);
      }
      self->watch();
    });
  }

  void load(const std::string& text) {
    std::vector<std::string> args{"SCRIPT", "LOAD", text};
    Callback ignore = [](std::optional<RedisReply>) {};
    send(args, ignore);
  }

  // An EVALSHA answered NOSCRIPT goes again as EVAL of the script it names.
  Callback retryingUnknownScript(std::vector<std::string> args, Callback callback) {
    return [this, args = std::move(args),
            callback = std::move(callback)](std::optional<RedisReply> reply) mutable {
      auto script = scripts.find(args[1]);
      if (!reply || reply->type != RedisReply::Type::kError ||
          reply->str.rfind("NOSCRIPT", 0) != 0 || script == scripts.end()) {
        return callback(std::move(reply));
      }
      args[0] = "EVAL";
      args[1] = script->second;
      send(args, callback);
    };
  }

  void send(std::vector<std::string>& args, Callback& callback) {
    if (!connection || !connection->context) {
      callback(std::nullopt);
      return;
    }
    // On the stack for the usual few arguments: a command is sent for nearly every request.
    constexpr std::size_t kOnStack = 16;
    std::array<const char*, kOnStack> argv_here;
    std::array<size_t, kOnStack> lengths_here;
    std::vector<const char*> argv_heap;
    std::vector<size_t> lengths_heap;
    const char** argv = argv_here.data();
    size_t* lengths = lengths_here.data();
    if (args.size() > kOnStack) {
      argv_heap.resize(args.size());
      lengths_heap.resize(args.size());
      argv = argv_heap.data();
      lengths = lengths_heap.data();
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
      argv[i] = args[i].data();
      lengths[i] = args[i].size();
    }
    auto* heap = new Callback(std::move(callback));
    if (redisAsyncCommandArgv(connection->context, &onReply, heap, static_cast<int>(args.size()),
                              argv, lengths) != REDIS_OK) {
      std::unique_ptr<Callback> owned(heap);
      (*owned)(std::nullopt);
      return;
    }
    pending.push_back(std::chrono::steady_clock::now());
    // hiredis has copied the command, so its arguments can move into the retry.
    if (args.size() >= 2 && args[0] == "EVALSHA") {
      *heap = retryingUnknownScript(std::move(args), std::move(*heap));
    }
  }

  // Ends the connection; on its loop's thread, or once nothing runs the loop.
  void stop() {
    stopping = true;
    reconnect_timer.cancel();
    watchdog.cancel();
    if (connection && connection->context) redisAsyncFree(connection->context);
    connection.reset();
  }
};

// The loop a standalone client runs on its own thread.
struct RedisClient::OwnLoop {
  asio::io_context io{1};
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};
  std::thread thread;
};

RedisClient::RedisClient(std::string host, int port, std::chrono::milliseconds timeout)
    : own_loop_(std::make_unique<OwnLoop>()) {
  impls_.push_back(std::make_shared<Impl>(own_loop_->io, std::move(host), port, timeout,
                                          std::make_shared<std::atomic<uint64_t>>(0)));
  start();
  own_loop_->thread = std::thread([this] { own_loop_->io.run(); });
}

RedisClient::RedisClient(IoThreads& threads, std::string host, int port,
                         std::chrono::milliseconds timeout)
    : threads_(&threads) {
  auto connections = std::make_shared<std::atomic<uint64_t>>(0);
  for (std::size_t i = 0; i < threads.size(); ++i) {
    impls_.push_back(std::make_shared<Impl>(threads.context(i), host, port, timeout, connections));
  }
  start();
}

void RedisClient::start() {
  for (const auto& impl : impls_) {
    asio::post(impl->io, [impl] {
      impl->connect();
      impl->watch();
    });
  }
}

RedisClient::~RedisClient() {
  if (own_loop_) {
    asio::post(own_loop_->io, [impl = impls_[0], loop = own_loop_.get()] {
      impl->stop();
      loop->work.reset();
    });
    own_loop_->thread.join();
    return;
  }
  if (!threads_->running()) {
    for (const auto& impl : impls_) impl->stop();
    return;
  }
  std::vector<std::future<void>> stopped;
  for (std::size_t i = 0; i < impls_.size(); ++i) {
    auto done = std::make_shared<std::promise<void>>();
    stopped.push_back(done->get_future());
    threads_->dispatch(i, [impl = impls_[i], done] {
      impl->stop();
      done->set_value();
    });
  }
  for (auto& f : stopped) {
    // A loop busy past this is not waited for: its connection ends when it gets to it.
    if (f.wait_for(std::chrono::seconds(2)) != std::future_status::ready) {
      log::warn("redis_stop_not_confirmed", {{"host", impls_[0]->host}});
    }
  }
}

RedisClient::Impl& RedisClient::here() const {
  // From a thread that is none of the loops' (a gRPC completion, a worker), the first
  // connection's: its answers then come back on that connection's thread.
  const std::size_t index = threads_ ? threads_->current() : IoThreads::kNone;
  return *impls_[index == IoThreads::kNone ? 0 : index];
}

void RedisClient::command(std::vector<std::string> args, Callback callback) {
  auto& impl = here();
  asio::dispatch(impl.io,
                 [impl = impl.shared_from_this(), args = std::move(args),
                  callback = std::move(callback)]() mutable { impl->send(args, callback); });
}

void RedisClient::pipeline(std::vector<std::vector<std::string>> commands,
                           PipelineCallback callback) {
  struct Join {
    std::vector<std::optional<RedisReply>> replies;
    std::size_t remaining;
    PipelineCallback callback;
  };
  auto join = std::make_shared<Join>();
  join->replies.resize(commands.size());
  join->remaining = commands.size();
  join->callback = std::move(callback);
  if (commands.empty()) return join->callback({});
  auto& impl = here();
  asio::dispatch(impl.io,
                 [impl = impl.shared_from_this(), commands = std::move(commands), join]() mutable {
                   // Sent together, so the commands leave in one write and their replies arrive in
                   // order.
                   for (std::size_t i = 0; i < commands.size(); ++i) {
                     Callback one = [join, i](std::optional<RedisReply> reply) {
                       join->replies[i] = std::move(reply);
                       if (--join->remaining == 0) join->callback(std::move(join->replies));
                     };
                     impl->send(commands[i], one);
                   }
                 });
}

void RedisClient::subscribe(std::string channel, std::function<void(std::string)> on_message) {
  auto impl = impls_[0];
  asio::post(impl->io,
             [impl, channel = std::move(channel), on_message = std::move(on_message)]() mutable {
               impl->subscriptions.push_back(std::make_unique<Impl::Subscription>(
                   Impl::Subscription{std::move(channel), std::move(on_message)}));
               if (impl->is_connected) impl->sendSubscribe(*impl->subscriptions.back());
             });
}

void RedisClient::addScript(std::string_view text) {
  for (const auto& impl : impls_) {
    asio::post(impl->io, [impl, text = std::string(text)] {
      auto [it, added] = impl->scripts.emplace(crypto::sha1Hex(text), text);
      if (added && impl->is_connected) impl->load(it->second);
    });
  }
}

std::optional<RedisReply> RedisClient::commandSync(std::vector<std::string> args) {
  auto promise = std::make_shared<std::promise<std::optional<RedisReply>>>();
  auto future = promise->get_future();
  command(std::move(args),
          [promise](std::optional<RedisReply> reply) { promise->set_value(std::move(reply)); });
  // The watchdog answers every command within the timeout; this bound is a safety net.
  if (future.wait_for(impls_[0]->timeout * 4) != std::future_status::ready) return std::nullopt;
  return future.get();
}

bool RedisClient::connected() const {
  for (const auto& impl : impls_) {
    if (!impl->is_connected) return false;
  }
  return true;
}

bool RedisClient::subscribed() const {
  return impls_[0]->is_subscribed;
}

uint64_t RedisClient::connectionEpoch() const {
  return *impls_[0]->connections_counted;
}

}  // namespace feedback
