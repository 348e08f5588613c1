#pragma once
// The rules of feedback links and their questions. Knows nothing of gRPC or SQL.

#include <map>
#include <optional>
#include <string>

#include "common/core/names.h"
#include "common/core/secret_box.h"
#include "feedback/links/v1/links.pb.h"
#include "services/links/links_store.h"

namespace feedback::links {

struct LinksSettings {
  // Scheme of public_url: "<scheme>://<workspace host>/i/<slug>".
  std::string public_scheme = "https";
  // Accept on_finished.webhook_url on loopback and private addresses (tests only).
  bool webhook_allow_private = false;
};

class LinksService {
 public:
  LinksService(LinksSettings settings, SecretBox secrets, LinkVersions& versions,
               LinkWebhooks& webhooks)
      : settings_(std::move(settings)),
        secrets_(std::move(secrets)),
        versions_(versions),
        webhooks_(webhooks) {}

  v1::CreateLinkResponse createLink(LinksStore& store, const v1::CreateLinkRequest& request);
  v1::GetLinkResponse getLink(LinksStore& store, const v1::GetLinkRequest& request);
  v1::GetLinkBySlugResponse getLinkBySlug(LinksStore& store,
                                          const v1::GetLinkBySlugRequest& request);
  v1::ListLinksResponse listLinks(LinksStore& store, const v1::ListLinksRequest& request);
  v1::UpdateLinkResponse updateLink(LinksStore& store, const v1::UpdateLinkRequest& request);
  v1::DeleteLinkResponse deleteLink(LinksStore& store, const v1::DeleteLinkRequest& request);
  // Tells the webhooks service the pending changes of automatic on_finished webhooks (of
  // `link_uuid`, or of any link when empty): right after a link is created or deleted, and
  // from a timer for those that failed then (the webhooks service was down) and for links
  // created before it existed. Failures are logged and left for the next round.
  void syncWebhooks(LinksStore& store, const std::string& link_uuid);

 private:
  void present(v1::Link& link, const feedback::common::v1::Caller& caller) const;
  OnFinished onFinished(const v1::CreateLinkRequest& request) const;
  LinksSettings settings_;
  SecretBox secrets_;
  LinkVersions& versions_;
  LinkWebhooks& webhooks_;
};

inline constexpr std::size_t kMaxQuestions = 100;

// The slug a name yields ("Customer NPS Survey" -> "customer-nps-survey"); "link" when the
// name has no ASCII letters or digits. Leaves room for a "-N" suffix.
std::string slugFromName(const std::string& name);
// The field_key a prompt yields ("Overall satisfaction" -> "overall_satisfaction").
std::string fieldKeyFromPrompt(const std::string& prompt);

// Builds a link's questions from drafts: defaults (docs/api.md "Resources"), generated field
// keys, order, and every validation of type, configuration, condition and evaluator_config.
// `existing` holds the link's current questions by uuid (PATCH keeps those uuids); null
// on creation. Throws ApiError; leaves `link.questions` sorted by (order, position).
void buildQuestions(const google::protobuf::RepeatedPtrField<v1::QuestionDraft>& drafts,
                    const std::map<std::string, v1::Question>* existing, v1::Link& link);

}  // namespace feedback::links
