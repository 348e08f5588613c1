#include "services/links/redis_link_versions.h"

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/redis/link_versions.h"

namespace feedback::links {

void RedisLinkVersions::raise(const std::string& link_uuid, int64_t version) {
  auto reply = redis_.commandSync({"EVAL", std::string(redisvalue::kRaiseScript), "1",
                                   linkversion::redisKey(link_uuid), std::to_string(version),
                                   std::to_string(linkversion::kTtlSeconds)});
  if (!reply || reply->type == RedisReply::Type::kError) {
    log::warn("link_version_unavailable", {{"link_uuid", link_uuid}});
    // The change is not committed: a gateway could otherwise keep serving the old document.
    throw ApiError(ErrorCode::kServiceUnavailable, "The link cache is unavailable.");
  }
}

}  // namespace feedback::links
