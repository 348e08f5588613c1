#pragma once
// What the links rules need from storage. PgLinksStore implements it with SQL.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "feedback/links/v1/links.pb.h"

namespace feedback::links {

struct LinkFilter {
  std::string status;  // empty: any
  std::string search;  // empty: any
};

class LinksStore {
 public:
  virtual ~LinksStore() = default;

  enum class InsertOutcome { kInserted, kSlugTaken, kQuotaReached };
  // Inserts `link` (uuid, name, status, settings, questions filled; slug filled or empty to
  // generate one from `slug_base`) atomically with the quota check: concurrent inserts into
  // one workspace are serialized. Fills timestamps and the generated slug.
  virtual InsertOutcome insertLink(const std::string& workspace_uuid, int link_quota,
                                   const std::string& slug_base,
                                   feedback::links::v1::Link& link) = 0;
  virtual std::optional<feedback::links::v1::Link> findLink(const std::string& workspace_uuid,
                                                            const std::string& link_uuid) = 0;
  virtual int64_t countLinks(const std::string& workspace_uuid, const LinkFilter& filter) = 0;
  virtual std::vector<feedback::links::v1::Link> listLinks(const std::string& workspace_uuid,
                                                           const LinkFilter& filter, int64_t offset,
                                                           int limit) = 0;
  virtual bool deleteLink(const std::string& workspace_uuid, const std::string& link_uuid) = 0;
};

}  // namespace feedback::links
