#pragma once
// The admin port of a service: /healthz, /readyz and /metrics over plain HTTP on one thread,
// apart from the serving threads. Admin traffic is a probe every few seconds, so requests are
// handled one at a time, with a receive timeout so that no client can hold the thread.

#include <functional>
#include <memory>
#include <string>

namespace feedback {

class AdminHttp {
 public:
  struct Handlers {
    std::function<bool()> ready;
    std::function<std::string()> metrics;
  };
  // Binds 0.0.0.0:port (0: any free port); throws when it cannot.
  AdminHttp(int port, Handlers handlers);
  ~AdminHttp();
  int port() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace feedback
