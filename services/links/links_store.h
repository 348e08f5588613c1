#pragma once
// What the links rules need from storage. PgLinksStore implements it with SQL.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "feedback/links/v1/links.pb.h"
#include "feedback/links/v1/reports.pb.h"

namespace feedback::links {

// on_finished of a created link; an empty url means none.
struct OnFinished {
  std::string webhook_url;
  std::string sealed_secret;  // SecretBox-sealed; empty when no secret was given
};

// A change of a link's automatic webhook still to be told to the webhooks service.
struct WebhookChange {
  std::string workspace_uuid;
  std::string link_uuid;
  std::string webhook_url;  // empty: remove the link's webhooks
  std::string sealed_secret;
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
  // Hands the pending webhook changes (of `link_uuid`, or of any link when empty; at most
  // `limit`) to `apply`, oldest first, and forgets each one applied; returns how many. The
  // changes of a link are locked meanwhile, so that two callers cannot apply them out of
  // order. An exception from `apply` ends the round; that change and later ones stay.
  virtual int applyWebhookChanges(const std::string& link_uuid, int limit,
                                  const std::function<void(const WebhookChange&)>& apply) = 0;

  // Shared reports (ReportRules). A live report is neither revoked nor expired.
  // Inserts `report` (uuid, link_uuid, include_text filled) expiring `days` after now, and
  // fills its times; false when the workspace has no such link.
  virtual bool insertReport(const std::string& workspace_uuid, const std::string& token_hash,
                            int days, feedback::links::v1::Report& report) = 0;
  virtual int64_t countReports(const std::string& workspace_uuid, const std::string& link_uuid) = 0;
  // Newest first.
  virtual std::vector<feedback::links::v1::Report> listReports(const std::string& workspace_uuid,
                                                               const std::string& link_uuid,
                                                               int64_t offset, int limit) = 0;
  // False when there is no such live report.
  virtual bool revokeReport(const std::string& workspace_uuid, const std::string& link_uuid,
                            const std::string& report_uuid) = 0;
  virtual std::optional<feedback::links::v1::Report> findLiveReport(
      const std::string& workspace_uuid, const std::string& token_hash) = 0;
};

// The webhooks service as the links rules need it: links' automatic on_finished webhooks.
// Failures throw.
class LinkWebhooks {
 public:
  virtual ~LinkWebhooks() = default;
  // `secret` empty: the webhooks service generates one.
  virtual void put(const std::string& workspace_uuid, const std::string& link_uuid,
                   const std::string& url, const std::string& secret) = 0;
  virtual void remove(const std::string& workspace_uuid, const std::string& link_uuid) = 0;
};

// Publishes link versions to the gateways' caches (common/link_versions.h). Failures throw
// ApiError(kServiceUnavailable).
class LinkVersions {
 public:
  virtual ~LinkVersions() = default;
  virtual void raise(const std::string& link_uuid, int64_t version) = 0;
};

}  // namespace feedback::links
