#pragma once
// Name lookups for outgoing connections, on threads of their own. Asio's async_resolve runs
// every lookup of an io_context one after another on one hidden thread, so a receiver whose
// name server never answers would hold up every other receiver's new connections for the
// lookup's whole timeout. Here lookups of different names run side by side (up to
// `max_threads` at once) and concurrent lookups of the same name share one.

#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace feedback::net {

class NameResolver {
 public:
  using Results = boost::asio::ip::tcp::resolver::results_type;
  using Flags = boost::asio::ip::resolver_base::flags;
  using Done = std::function<void(boost::system::error_code, Results)>;
  // A blocking lookup (getaddrinfo by default; tests give their own).
  using Lookup = std::function<std::pair<boost::system::error_code, Results>(
      const std::string& host, const std::string& port, Flags flags)>;

  explicit NameResolver(std::size_t max_threads, Lookup lookup = {});
  ~NameResolver();  // stop()
  NameResolver(const NameResolver&) = delete;
  NameResolver& operator=(const NameResolver&) = delete;

  // Looks `host` up; `done` runs once, on one of the resolver's threads, never inline, unless
  // stop() comes first. It should only hand the result on (post it to its own executor).
  void resolve(const std::string& host, const std::string& port, Flags flags, Done done);

  // Drops every `done` not yet called and refuses new lookups; once it returns no `done` runs.
  // A lookup under way cannot be interrupted: its thread ends when the lookup does.
  void stop();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace feedback::net
