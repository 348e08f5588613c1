#include "services/gateway/auth/host_workspace_resolver.h"

#include "common/core/errors.h"
#include "common/grpc/grpc_kit.h"

namespace feedback::gateway {

std::string normalizeHost(std::string_view host) {
  if (auto colon = host.rfind(':'); colon != std::string_view::npos) host = host.substr(0, colon);
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty() || host.size() > 253) return {};
  std::string out;
  out.reserve(host.size());
  for (char c : host) {
    char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool allowed = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') ||
                   lower == '-' || lower == '.';
    if (!allowed) return {};
    out += lower;
  }
  return out;
}

void HostWorkspaceResolver::resolve(std::string_view raw_host, Done done) {
  std::string host = normalizeHost(raw_host);
  if (host.empty()) return done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnknown});
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(host);
    if (it != entries_.end() && it->second.expires > std::chrono::steady_clock::now()) {
      WorkspaceOutcome outcome = it->second.outcome;
      return done(std::move(outcome));
    }
  }
  struct Call {
    grpc::ClientContext client;
    feedback::tokens::v1::ResolveHostRequest request;
    feedback::tokens::v1::ResolveHostResponse response;
  };
  auto call = std::make_shared<Call>();
  call->request.set_host(host);
  call->client.set_deadline(std::chrono::system_clock::now() + timeout_);
  tokens_.async()->ResolveHost(
      &call->client, &call->request, &call->response,
      [this, call, done = std::move(done)](grpc::Status status) {
        WorkspaceOutcome outcome;
        if (status.ok()) {
          outcome = {WorkspaceOutcome::Kind::kFound, call->response.workspace()};
        } else if (grpckit::fromStatus(status).code() == ErrorCode::kNotFound) {
          outcome.kind = WorkspaceOutcome::Kind::kUnknown;
        } else {
          return done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnavailable});
        }
        remember(call->request.host(), outcome);
        done(std::move(outcome));
      });
}

void HostWorkspaceResolver::remember(const std::string& host, const WorkspaceOutcome& outcome) {
  const auto now = std::chrono::steady_clock::now();
  const auto ttl =
      outcome.kind == WorkspaceOutcome::Kind::kFound ? settings_.known_ttl : settings_.unknown_ttl;
  std::lock_guard lock(mutex_);
  if (entries_.size() >= settings_.max_entries) {
    // Expired entries go first; if none has, the table starts over (a rare flood of hosts).
    std::erase_if(entries_, [now](const auto& e) { return e.second.expires <= now; });
    if (entries_.size() >= settings_.max_entries) entries_.clear();
  }
  entries_[host] = Entry{outcome, now + ttl};
}

}  // namespace feedback::gateway
