#pragma once
// The workspace of a public host (the Host header of an intake request), asked of the tokens
// service and kept in memory: hosts and workspaces change rarely, and the intake's hot path
// must not pay a backend call for them. Unknown hosts are remembered briefly too, so that a
// flood of requests for a made-up host costs one lookup per few seconds.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/auth/key_authenticator.h"

namespace feedback::gateway {

struct HostCacheSettings {
  std::chrono::seconds known_ttl{60};
  std::chrono::seconds unknown_ttl{5};
  std::size_t max_entries = 10000;
};

class HostWorkspaceResolver final : public WorkspaceResolver {
 public:
  HostWorkspaceResolver(feedback::tokens::v1::TokensService::Stub& tokens,
                        std::chrono::milliseconds timeout, HostCacheSettings settings = {})
      : tokens_(tokens), timeout_(timeout), settings_(settings) {}

  void resolve(std::string_view host, Done done) override;

 private:
  struct Entry {
    WorkspaceOutcome outcome;
    std::chrono::steady_clock::time_point expires;
  };
  void remember(const std::string& host, const WorkspaceOutcome& outcome);

  feedback::tokens::v1::TokensService::Stub& tokens_;
  const std::chrono::milliseconds timeout_;
  const HostCacheSettings settings_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

// The host of a Host header in lowercase without port or trailing dot; empty when it is not
// a plausible DNS name.
std::string normalizeHost(std::string_view host);

}  // namespace feedback::gateway
