#pragma once
// What the links rules need from storage. PgLinksStore implements it with SQL.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "feedback/links/v1/links.pb.h"

namespace feedback::links {

// on_finished of a created link; an empty url means none.
struct OnFinished {
  std::string webhook_url;
  std::string sealed_secret;  // SecretBox-sealed; empty when no secret was given
};

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
                                   const std::string& slug_base, feedback::links::v1::Link& link,
                                   const OnFinished& on_finished) = 0;

  enum class UpdateOutcome { kUpdated, kNotFound, kSlugTaken };
  // Loads the link with its questions and locks it, lets `apply` change it (returning true
  // when it replaced the questions; an exception undoes everything) and saves it. Questions
  // that keep a uuid keep their date_created. Fills the new timestamps.
  // `before_commit` gets the new version while the change is uncommitted; an exception from
  // it undoes the change.
  virtual UpdateOutcome updateLink(const std::string& workspace_uuid, const std::string& link_uuid,
                                   const std::function<bool(feedback::links::v1::Link&)>& apply,
                                   feedback::links::v1::Link& updated,
                                   const std::function<void(int64_t)>& before_commit) = 0;
  virtual std::optional<feedback::links::v1::Link> findLink(const std::string& workspace_uuid,
                                                            const std::string& link_uuid) = 0;
  virtual std::optional<feedback::links::v1::Link> findLinkBySlug(const std::string& workspace_uuid,
                                                                  const std::string& slug) = 0;
  virtual int64_t countLinks(const std::string& workspace_uuid, const LinkFilter& filter) = 0;
  virtual std::vector<feedback::links::v1::Link> listLinks(const std::string& workspace_uuid,
                                                           const LinkFilter& filter, int64_t offset,
                                                           int limit) = 0;
  // False when there is no such link. `before_commit` runs before the deletion commits.
  virtual bool deleteLink(const std::string& workspace_uuid, const std::string& link_uuid,
                          const std::function<void()>& before_commit) = 0;
};

// Publishes link versions to the gateways' caches (common/link_versions.h). Failures throw
// ApiError(kServiceUnavailable).
class LinkVersions {
 public:
  virtual ~LinkVersions() = default;
  virtual void raise(const std::string& link_uuid, int64_t version) = 0;
};

}  // namespace feedback::links
