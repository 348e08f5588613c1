#pragma once
// The links of the public intake, found by workspace and slug: kept in the gateway with the
// form a respondent is shown, and used only while the link's version in Redis
// (common/redis/link_versions.h) equals theirs, read in the request's one round trip. A
// link whose slug changes, or that is paused or deleted, changes version, so a stale entry is
// never used.

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/redis/redis_client.h"
#include "feedback/links/v1/links.pb.h"
#include "services/gateway/backends/backends.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

struct IntakeForm {
  std::string workspace_uuid;
  // With its version and its questions in display order.
  feedback::links::v1::Link link;
  // GET /i/{slug}/form/.
  std::string form_json;
  // GET /i/{slug} (page/intake_page.h).
  std::string page_html;
};

class IntakeLinks {
 public:
  IntakeLinks(const Backends& backends, RedisClient& redis, std::size_t max_entries);
  ~IntakeLinks();

  // The read of the version of the link last found at this slug of the caller's workspace;
  // none when there is no such entry.
  std::vector<RedisCommand> prefetch(const RequestContext& ctx, const std::string& slug);
  // The link published at `slug` in the caller's workspace, then `then`; answers 404 when
  // there is none. `version` is the answer to prefetch(), if any (ctx->redis.keyRead(0) tells
  // whose version it is).
  void find(const ContextPtr& ctx, const std::string& slug,
            const std::optional<RedisReply>& version,
            std::function<void(std::shared_ptr<const IntakeForm>)> then, Respond respond);

 private:
  std::shared_ptr<const IntakeForm> cached(const std::string& key);
  void store(const std::string& key, std::shared_ptr<const IntakeForm> form);

  struct Stub;
  std::unique_ptr<Stub> stub_;
  RedisClient& redis_;
  const std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const IntakeForm>> entries_;
};

// A route of the public intake: `handle` runs once the link at the path's {slug} (the first
// parameter) is found in the Host's workspace; 404 when there is none.
using WithForm = std::function<void(const ContextPtr&, Respond, std::shared_ptr<const IntakeForm>)>;
RouteEntry intakeRoute(IntakeLinks& links, RouteAttributes attributes, WithForm handle);

}  // namespace feedback::gateway
