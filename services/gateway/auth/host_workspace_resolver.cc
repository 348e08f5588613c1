#include "services/gateway/auth/host_workspace_resolver.h"

#include "common/core/errors.h"
#include "common/core/names.h"
#include "common/grpc/grpc_kit.h"

namespace feedback::gateway {
namespace {

namespace tv1 = feedback::tokens::v1;

HostWorkspaceResolver::Lookup tokensLookup(tv1::TokensService::Stub& tokens,
                                           std::chrono::milliseconds timeout) {
  return [&tokens, timeout](const std::string& host, WorkspaceResolver::Done done) {
    struct Call {
      grpc::ClientContext client;
      tv1::ResolveHostRequest request;
      tv1::ResolveHostResponse response;
    };
    auto call = std::make_shared<Call>();
    call->request.set_host(host);
    call->client.set_deadline(std::chrono::system_clock::now() + timeout);
    tokens.async()->ResolveHost(
        &call->client, &call->request, &call->response,
        [call, done = std::move(done)](grpc::Status status) {
          if (status.ok()) {
            return done({WorkspaceOutcome::Kind::kFound,
                         callerOfWorkspace(std::move(*call->response.mutable_workspace()))});
          }
          if (grpckit::fromStatus(status).code() == ErrorCode::kNotFound) {
            return done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnknown});
          }
          done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnavailable});
        });
  };
}

}  // namespace

HostWorkspaceResolver::HostWorkspaceResolver(tv1::TokensService::Stub& tokens,
                                             std::chrono::milliseconds timeout,
                                             HostCacheSettings settings)
    : HostWorkspaceResolver(tokensLookup(tokens, timeout), std::move(settings)) {}

HostWorkspaceResolver::HostWorkspaceResolver(Lookup lookup, HostCacheSettings settings)
    : lookup_(std::move(lookup)), settings_(std::move(settings)) {}

const WorkspaceOutcome* HostWorkspaceResolver::remembered(const std::string& subdomain) const {
  const auto now = std::chrono::steady_clock::now();
  for (const Table* table : {&known_, &unknown_}) {
    auto it = table->find(subdomain);
    if (it != table->end() && it->second.expires > now) return &it->second.outcome;
  }
  return nullptr;
}

void HostWorkspaceResolver::resolve(std::string_view raw_host, Done done) {
  std::string subdomain = subdomainOfHost(raw_host, settings_.public_host_suffix);
  if (!isValidSubdomain(subdomain)) return done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnknown});
  std::optional<WorkspaceOutcome> known;
  {
    std::lock_guard lock(mutex_);
    if (const auto* outcome = remembered(subdomain)) {
      known = *outcome;
    } else {
      auto [waiting, first] = waiting_.try_emplace(subdomain);
      waiting->second.push_back(std::move(done));
      if (!first) return;  // answered with the lookup under way
    }
  }
  // Outside the lock: `done` goes on with the request.
  if (known) return done(std::move(*known));
  lookup_(subdomain + "." + settings_.public_host_suffix,
          [this, subdomain](WorkspaceOutcome outcome) {
            std::vector<Done> waiters;
            {
              std::lock_guard lock(mutex_);
              if (outcome.kind != WorkspaceOutcome::Kind::kUnavailable) {
                remember(subdomain, outcome);
              }
              auto it = waiting_.find(subdomain);
              waiters = std::move(it->second);
              waiting_.erase(it);
            }
            for (auto& waiter : waiters) waiter(outcome);
          });
}

void HostWorkspaceResolver::remember(const std::string& subdomain,
                                     const WorkspaceOutcome& outcome) {
  const auto now = std::chrono::steady_clock::now();
  const bool found = outcome.kind == WorkspaceOutcome::Kind::kFound;
  Table& table = found ? known_ : unknown_;
  (found ? unknown_ : known_).erase(subdomain);
  if (table.size() >= settings_.max_entries) {
    // Expired entries go first; if none has, the table starts over. Only a flood of made-up
    // hosts fills the unknown table, and the known one holds no more hosts than workspaces.
    std::erase_if(table, [now](const auto& e) { return e.second.expires <= now; });
    if (table.size() >= settings_.max_entries) table.clear();
  }
  table[subdomain] = Entry{outcome, now + (found ? settings_.known_ttl : settings_.unknown_ttl)};
}

}  // namespace feedback::gateway
