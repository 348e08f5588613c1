#pragma once
// The workspace of a public host (the Host header of an intake request), asked of the tokens
// service and kept in memory: hosts and workspaces change rarely, and the intake's hot path
// must not pay a backend call for them. A host that is not <subdomain>.<PUBLIC_HOST_SUFFIX>
// is unknown without asking. Unknown hosts are remembered briefly, in a table of their own,
// so that a flood of made-up hosts costs one lookup per host per few seconds and never pushes
// out the hosts of real workspaces; concurrent lookups of one host share one call.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/auth/key_authenticator.h"

namespace feedback::gateway {

struct HostCacheSettings {
  std::string public_host_suffix = "localhost";
  std::chrono::seconds known_ttl{60};
  std::chrono::seconds unknown_ttl{5};
  std::size_t max_entries = 10000;  // in each table
};

class HostWorkspaceResolver final : public WorkspaceResolver {
 public:
  // How a host is looked up: `done` runs once, on any thread; kUnknown when no workspace has
  // the host, kUnavailable when the answer is not known.
  using Lookup = std::function<void(const std::string& host, Done done)>;

  HostWorkspaceResolver(feedback::tokens::v1::TokensService::Stub& tokens,
                        std::chrono::milliseconds timeout, HostCacheSettings settings = {});
  HostWorkspaceResolver(Lookup lookup, HostCacheSettings settings);

  void resolve(std::string_view host, Done done) override;

 private:
  struct Entry {
    WorkspaceOutcome outcome;
    std::chrono::steady_clock::time_point expires;
  };
  using Table = std::unordered_map<std::string, Entry>;
  // The remembered outcome for `subdomain`, if still fresh; the caller holds mutex_.
  const WorkspaceOutcome* remembered(const std::string& subdomain) const;
  void remember(const std::string& subdomain, const WorkspaceOutcome& outcome);

  const Lookup lookup_;
  const HostCacheSettings settings_;
  mutable std::mutex mutex_;
  Table known_, unknown_;                                       // by subdomain
  std::unordered_map<std::string, std::vector<Done>> waiting_;  // lookups under way
};

}  // namespace feedback::gateway
