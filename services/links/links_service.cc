#include "services/links/links_service.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <set>

#include "common/core/ascii.h"
#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/core/pagination.h"
#include "common/core/text.h"
#include "common/questions/conditions.h"
#include "common/questions/configuration_rules.h"
#include "common/questions/question_types.h"
#include "common/questions/recall.h"
#include "common/redis/link_versions.h"
#include "common/webhooks/webhook_rules.h"

namespace feedback::links {
namespace {

using questions::findQuestionType;
using questions::isHttpUrl;
using questions::parseObject;

constexpr std::size_t kMaxNameLength = 200;
constexpr std::size_t kMaxPromptLength = 2000;
constexpr std::size_t kMaxSettingText = 2000;
constexpr int kMaxOrder = 1000000;
constexpr std::string_view kDefaultThankYou = "Thanks for your response!";

[[noreturn]] void invalid(const std::string& path, const std::string& problem) {
  throw ApiError(ErrorCode::kValidationError, "'" + path + "' " + problem + ".", {{path, problem}});
}

std::string requireName(const std::string& name) {
  if (trim(name).empty()) throw ApiError(ErrorCode::kNameRequired, "A name is required.");
  requireStorableText(name, "name");
  if (name.size() > kMaxNameLength) invalid("name", "must be at most 200 characters");
  return name;
}

void requireSlug(const std::string& slug) {
  if (!isValidSlug(slug)) {
    throw ApiError(ErrorCode::kInvalidSlug,
                   "A slug is lowercase letters and digits joined by single hyphens, at most 64.",
                   {{"slug", "must match ^[a-z0-9]+(-[a-z0-9]+)*$ and be at most 64 long"}});
  }
}

void requireStatus(const std::string& status) {
  if (status != "active" && status != "paused") invalid("status", "must be active or paused");
}

// Applies the given settings over `out`; keys absent from `in` stay as they are.
void mergeSettings(const v1::LinkSettings& in, v1::LinkSettings& out) {
  if (in.has_description()) out.set_description(in.description());
  if (in.has_thank_you_message()) out.set_thank_you_message(in.thank_you_message());
  if (in.has_redirect_url()) out.set_redirect_url(in.redirect_url());
  if (in.has_tts_enabled()) out.set_tts_enabled(in.tts_enabled());
  if (in.has_live_transcription()) out.set_live_transcription(in.live_transcription());
}

void resetSetting(const std::string& name, v1::LinkSettings& s) {
  if (name == "description") {
    s.clear_description();
  } else if (name == "thank_you_message") {
    s.set_thank_you_message(std::string(kDefaultThankYou));
  } else if (name == "redirect_url") {
    s.clear_redirect_url();
  } else if (name == "tts_enabled") {
    s.set_tts_enabled(false);
  } else if (name == "live_transcription") {
    s.set_live_transcription(false);
  } else {
    invalid("settings", "has no setting '" + name + "'");
  }
}

v1::LinkSettings defaultSettings() {
  v1::LinkSettings s;
  s.set_thank_you_message(std::string(kDefaultThankYou));
  s.set_tts_enabled(false);
  s.set_live_transcription(false);
  return s;
}

void validateSettings(const v1::LinkSettings& s) {
  requireStorableText(s.description(), "settings.description");
  requireStorableText(s.thank_you_message(), "settings.thankYouMessage");
  requireStorableText(s.redirect_url(), "settings.redirectUrl");
  if (s.description().size() > kMaxSettingText) {
    invalid("settings.description", "must be at most 2000 characters");
  }
  if (s.thank_you_message().size() > kMaxSettingText) {
    invalid("settings.thankYouMessage", "must be at most 2000 characters");
  }
  if (s.has_redirect_url() && !isHttpUrl(s.redirect_url(), false)) {
    invalid("settings.redirectUrl", "must be an absolute http(s) URL");
  }
}

// The description is shown before any question: it may recall only what the page knows
// from its address, hidden_field questions (docs/api.md "Logic and recall").
void validateDescriptionRecall(const v1::Link& link) {
  if (link.settings().description().find("{{") == std::string::npos) return;
  std::vector<questions::Question> hidden;
  hidden.reserve(static_cast<std::size_t>(link.questions_size()));
  for (const auto& q : link.questions()) {
    const auto* type = findQuestionType(q.response_type());
    if (!type || type->display != questions::Display::kNever ||
        type->source != questions::AnswerSource::kRespondent) {
      continue;
    }
    auto& question = hidden.emplace_back();
    question.field_key = q.field_key();
    question.response_type = q.response_type();
  }
  questions::QuestionsByKey allowed;
  for (const auto& q : hidden) allowed.emplace(q.field_key, &q);
  questions::validateRecall(link.settings().description(), "settings.description", allowed);
}

std::string compact(const boost::json::object& object) {
  return boost::json::serialize(object);
}

struct Draft {
  const v1::QuestionDraft* draft;
  std::string path;
  boost::json::object configuration, condition, evaluator_config;
};

}  // namespace

std::string slugFromName(const std::string& name) {
  std::string slug = nameToSlug(name, '-', kMaxSlugLength - 8);
  return slug.empty() ? "link" : slug;
}

std::string fieldKeyFromPrompt(const std::string& prompt) {
  std::string key = nameToSlug(prompt, '_', kMaxFieldKeyLength - 4);
  return key.empty() ? "question" : key;
}

namespace {

// Keys given explicitly, reserved first, so that a generated key never takes one that a later
// question asks for.
std::set<std::string> givenFieldKeys(
    const google::protobuf::RepeatedPtrField<v1::QuestionDraft>& drafts) {
  std::set<std::string> keys;
  for (int i = 0; i < drafts.size(); ++i) {
    const auto& d = drafts[i];
    if (!d.has_field_key()) continue;
    std::string path = "questions[" + std::to_string(i) + "].field_key";
    if (!isValidFieldKey(d.field_key())) {
      invalid(path, "must be snake_case (^[a-z0-9]+(_[a-z0-9]+)*$), at most 64 characters");
    }
    if (!keys.insert(d.field_key()).second) {
      invalid(path, "repeats the field_key '" + d.field_key() + "' of an earlier question");
    }
  }
  return keys;
}

// The checks of one question that need no other: prompt, type, order, and its JSON parts
// parsed.
Draft parseDraft(const v1::QuestionDraft& d, int i) {
  Draft p{&d, "questions[" + std::to_string(i) + "]", {}, {}, {}};
  const std::string prompt = d.has_prompt() ? d.prompt() : std::string();
  if (trim(prompt).empty()) invalid(p.path + ".prompt", "is required");
  requireStorableText(prompt, p.path + ".prompt");
  if (prompt.size() > kMaxPromptLength)
    invalid(p.path + ".prompt", "must be at most 2000 characters");
  const std::string type = d.has_type() ? d.type() : std::string(questions::kDefaultQuestionType);
  if (!findQuestionType(type)) {
    throw ApiError(
        ErrorCode::kInvalidQuestionType, "Unknown question type '" + type + "'.",
        {{p.path + ".type", "must be one of the " + std::to_string(questions::kQuestionTypeCount) +
                                " question types"}});
  }
  if (d.has_order() && (d.order() < 0 || d.order() > kMaxOrder)) {
    invalid(p.path + ".order", "must be from 0 to 1000000");
  }
  if (d.has_configuration_json()) {
    p.configuration = parseObject(d.configuration_json(), p.path + ".configuration",
                                  ErrorCode::kInvalidConfiguration);
  }
  if (d.has_condition_json()) {
    p.condition =
        parseObject(d.condition_json(), p.path + ".condition", ErrorCode::kInvalidCondition);
  }
  if (d.has_evaluator_config_json()) {
    p.evaluator_config = parseObject(d.evaluator_config_json(), p.path + ".evaluator_config",
                                     ErrorCode::kValidationError);
  }
  return p;
}

// The question `p` describes, added to `link`: its uuid (kept, from `existing`, or new), its
// field_key (given, or made from the prompt and reserved in `keys`) and defaults.
void addQuestion(const Draft& p, const std::map<std::string, v1::Question>* existing,
                 std::set<std::string>& kept_uuids, std::set<std::string>& keys, v1::Link& link) {
  const auto& d = *p.draft;
  auto* q = link.add_questions();
  if (d.has_uuid()) {
    auto found = existing ? existing->find(d.uuid()) : decltype(existing->end()){};
    if (!existing || found == existing->end()) {
      invalid(p.path + ".uuid", "is not a question of this link");
    }
    if (!kept_uuids.insert(d.uuid()).second) invalid(p.path + ".uuid", "appears twice");
    q->set_uuid(d.uuid());
    q->set_date_created_micros(found->second.date_created_micros());
  } else {
    q->set_uuid(newUuid());
  }
  std::string key = d.has_field_key() ? d.field_key() : std::string();
  if (key.empty()) {
    const std::string base = fieldKeyFromPrompt(d.prompt());
    key = base;
    for (int n = 2; keys.count(key); ++n) key = base + "_" + std::to_string(n);
    keys.insert(key);
  }
  q->set_prompt(d.prompt());
  q->set_field_key(key);
  q->set_response_type(d.has_type() ? d.type() : std::string(questions::kDefaultQuestionType));
  q->set_configuration_json(compact(p.configuration));
  q->set_order(d.has_order() ? d.order() : 0);
  q->set_required(d.has_required() && d.required());
  q->set_condition_json(compact(p.condition));
  q->set_enable_dynamic_probing(d.has_enable_dynamic_probing() && d.enable_dynamic_probing());
  q->set_fallback_to_text(!d.has_fallback_to_text() || d.fallback_to_text());
  q->set_evaluator_config_json(compact(p.evaluator_config));
}

// The checks that look back along display order: configurations (formulas name other
// questions), conditions and placeholders (earlier questions only).
void validateQuestion(const v1::Question& q, Draft& p, const std::set<std::string>& keys,
                      const questions::QuestionsByKey& earlier) {
  const auto& type = *findQuestionType(q.response_type());
  questions::validateConfiguration(type, p.configuration, p.path + ".configuration", keys,
                                   q.field_key());
  questions::validateCondition(p.condition, p.path + ".condition", earlier);
  questions::validateEvaluatorConfig(p.evaluator_config, p.path + ".evaluator_config");
  // A question the page never shows and the respondent answers: a hidden_field.
  if (q.required() && type.display == questions::Display::kNever &&
      type.source == questions::AnswerSource::kRespondent) {
    const std::string problem = "must be false: a " + std::string(type.name) +
                                " question is never shown, so never required";
    throw ApiError(ErrorCode::kInvalidConfiguration, "'" + p.path + ".required' " + problem + ".",
                   {{p.path + ".required", problem}});
  }
  questions::validateRecall(q.prompt(), p.path + ".prompt", earlier);
  if (const auto* content = p.configuration.if_contains("content");
      content && content->is_string()) {
    questions::validateRecall(content->as_string(), p.path + ".configuration.content", earlier);
  }
}

}  // namespace

void buildQuestions(const google::protobuf::RepeatedPtrField<v1::QuestionDraft>& drafts,
                    const std::map<std::string, v1::Question>* existing, v1::Link& link) {
  if (static_cast<std::size_t>(drafts.size()) > kMaxQuestions) {
    invalid("questions", "must hold at most 100 questions");
  }
  std::set<std::string> keys = givenFieldKeys(drafts);
  std::vector<Draft> parsed;
  std::set<std::string> kept_uuids;
  link.clear_questions();
  for (int i = 0; i < drafts.size(); ++i) {
    parsed.push_back(parseDraft(drafts[i], i));
    addQuestion(parsed.back(), existing, kept_uuids, keys, link);
  }

  // Display order: (order, position in the request). Conditions look back along it.
  std::vector<int> display(static_cast<std::size_t>(link.questions_size()));
  for (std::size_t i = 0; i < display.size(); ++i) display[i] = static_cast<int>(i);
  std::stable_sort(display.begin(), display.end(), [&link](int a, int b) {
    return link.questions(a).order() < link.questions(b).order();
  });
  // The questions before each one in display order: what its condition and placeholders name.
  std::vector<questions::Question> checked(display.size());
  questions::QuestionsByKey earlier;
  for (int index : display) {
    const auto& q = link.questions(index);
    auto& p = parsed[static_cast<std::size_t>(index)];
    validateQuestion(q, p, keys, earlier);
    auto& question = checked[static_cast<std::size_t>(index)];
    question.field_key = q.field_key();
    question.response_type = q.response_type();
    question.configuration = std::move(p.configuration);
    earlier.emplace(q.field_key(), &question);
  }
  google::protobuf::RepeatedPtrField<v1::Question> sorted;
  for (int index : display) *sorted.Add() = link.questions(index);
  link.mutable_questions()->Swap(&sorted);
}

void LinksService::present(v1::Link& link, const feedback::common::v1::Caller& caller) const {
  link.set_public_url(settings_.public_scheme + "://" + caller.workspace().host() + "/i/" +
                      link.slug());
}

OnFinished LinksService::onFinished(const v1::CreateLinkRequest& request) const {
  OnFinished out;
  if (!request.has_on_finished()) return out;
  const auto& o = request.on_finished();
  if (o.has_webhook_secret() && !o.has_webhook_url()) {
    invalid("on_finished.webhook_secret", "needs on_finished.webhook_url");
  }
  if (!o.has_webhook_url()) return out;
  webhooks::checkUrl(o.webhook_url(), settings_.webhook_allow_private, "on_finished.webhook_url");
  out.webhook_url = o.webhook_url();
  if (o.has_webhook_secret()) {
    webhooks::checkSecret(o.webhook_secret(), "on_finished.webhook_secret");
    out.sealed_secret = secrets_.seal(o.webhook_secret());
  }
  return out;
}

v1::CreateLinkResponse LinksService::createLink(LinksStore& store,
                                                const v1::CreateLinkRequest& request) {
  v1::Link link;
  link.set_uuid(newUuid());
  link.set_name(requireName(request.has_name() ? request.name() : std::string()));
  if (request.has_slug()) requireSlug(request.slug());
  link.set_slug(request.has_slug() ? request.slug() : std::string());
  link.set_status(request.has_status() ? request.status() : "active");
  requireStatus(link.status());
  *link.mutable_settings() = defaultSettings();
  mergeSettings(request.settings(), *link.mutable_settings());
  validateSettings(link.settings());
  buildQuestions(request.questions(), nullptr, link);
  validateDescriptionRecall(link);
  OnFinished on_finished = onFinished(request);

  const auto& caller = request.caller();
  switch (store.insertLink(caller.workspace().uuid(), caller.workspace().link_quota(),
                           slugFromName(link.name()), link, on_finished)) {
    case LinksStore::InsertOutcome::kSlugTaken:
      throw ApiError(ErrorCode::kSlugConflict,
                     "A link with slug '" + link.slug() + "' already exists.",
                     {{"slug", "already exists"}});
    case LinksStore::InsertOutcome::kQuotaReached:
      throw ApiError(ErrorCode::kLinkLimitReached,
                     "The workspace has reached its plan's quota of " +
                         std::to_string(caller.workspace().link_quota()) + " links.");
    case LinksStore::InsertOutcome::kInserted:
      break;
  }
  if (!on_finished.webhook_url.empty()) syncWebhooks(store, link.uuid());
  present(link, caller);
  v1::CreateLinkResponse response;
  *response.mutable_link() = std::move(link);
  return response;
}

v1::GetLinkResponse LinksService::getLink(LinksStore& store, const v1::GetLinkRequest& request) {
  if (!isUuid(request.link_uuid())) throw ApiError(ErrorCode::kNotFound);
  auto link = store.findLink(request.caller().workspace().uuid(), request.link_uuid());
  if (!link) throw ApiError(ErrorCode::kNotFound, "No such link.");
  present(*link, request.caller());
  v1::GetLinkResponse response;
  *response.mutable_link() = std::move(*link);
  return response;
}

v1::GetLinkBySlugResponse LinksService::getLinkBySlug(LinksStore& store,
                                                      const v1::GetLinkBySlugRequest& request) {
  auto link = isValidSlug(request.slug())
                  ? store.findLinkBySlug(request.caller().workspace().uuid(), request.slug())
                  : std::nullopt;
  if (!link) throw ApiError(ErrorCode::kNotFound, "No such link.");
  present(*link, request.caller());
  v1::GetLinkBySlugResponse response;
  *response.mutable_link() = std::move(*link);
  return response;
}

v1::ListLinksResponse LinksService::listLinks(LinksStore& store,
                                              const v1::ListLinksRequest& request) {
  Page page = normalizePage(request.page());
  if (!request.status().empty()) requireStatus(request.status());
  LinkFilter filter{request.status(), request.search()};
  const std::string& ws = request.caller().workspace().uuid();
  v1::ListLinksResponse response;
  response.set_count(store.countLinks(ws, filter));
  requirePageExists(page, response.count());
  for (auto& link : store.listLinks(ws, filter, page.offset(), page.size)) {
    present(link, request.caller());
    *response.add_links() = std::move(link);
  }
  return response;
}

v1::UpdateLinkResponse LinksService::updateLink(LinksStore& store,
                                                const v1::UpdateLinkRequest& request) {
  if (!isUuid(request.link_uuid())) throw ApiError(ErrorCode::kNotFound);
  // Checks that need no stored state come first, outside the row lock.
  if (request.has_name()) requireName(request.name());
  if (request.has_slug()) requireSlug(request.slug());
  if (request.has_status()) requireStatus(request.status());

  v1::Link updated;
  auto outcome = store.updateLink(
      request.caller().workspace().uuid(), request.link_uuid(),
      [&request](v1::Link& link) {
        if (request.has_name()) link.set_name(request.name());
        if (request.has_slug()) link.set_slug(request.slug());
        if (request.has_status()) link.set_status(request.status());
        for (const auto& name : request.reset_settings()) {
          resetSetting(name, *link.mutable_settings());
        }
        mergeSettings(request.settings(), *link.mutable_settings());
        validateSettings(link.settings());
        if (request.replace_questions()) {
          std::map<std::string, v1::Question> existing;
          for (const auto& q : link.questions()) existing[q.uuid()] = q;
          buildQuestions(request.questions(), &existing, link);
        }
        // A description set before recall existed is judged only when something it reads
        // changes.
        if (request.replace_questions() || request.settings().has_description()) {
          validateDescriptionRecall(link);
        }
        return request.replace_questions();
      },
      updated,
      [this, &request](int64_t version) { versions_.raise(request.link_uuid(), version); });
  switch (outcome) {
    case LinksStore::UpdateOutcome::kNotFound:
      throw ApiError(ErrorCode::kNotFound, "No such link.");
    case LinksStore::UpdateOutcome::kSlugTaken:
      throw ApiError(ErrorCode::kSlugConflict,
                     "A link with slug '" + request.slug() + "' already exists.",
                     {{"slug", "already exists"}});
    case LinksStore::UpdateOutcome::kUpdated:
      break;
  }
  present(updated, request.caller());
  v1::UpdateLinkResponse response;
  *response.mutable_link() = std::move(updated);
  return response;
}

v1::DeleteLinkResponse LinksService::deleteLink(LinksStore& store,
                                                const v1::DeleteLinkRequest& request) {
  if (!isUuid(request.link_uuid()) ||
      !store.deleteLink(request.caller().workspace().uuid(), request.link_uuid(),
                        [&] { versions_.raise(request.link_uuid(), linkversion::kDeleted); })) {
    throw ApiError(ErrorCode::kNotFound, "No such link.");
  }
  syncWebhooks(store, request.link_uuid());
  return {};
}

void LinksService::syncWebhooks(LinksStore& store, const std::string& link_uuid) {
  try {
    store.applyWebhookChanges(link_uuid, 100, [this](const WebhookChange& change) {
      if (change.webhook_url.empty()) {
        webhooks_.remove(change.workspace_uuid, change.link_uuid);
        return;
      }
      std::string secret;
      if (!change.sealed_secret.empty()) {
        auto opened = secrets_.open(change.sealed_secret);
        if (!opened) {
          // Sealed under another SECRETS_KEY: it would fail on every try and hold up every later
          // change, so it is dropped, loudly, like a change the webhooks service refuses.
          log::error("link_webhook_secret_unreadable", {{"link_uuid", change.link_uuid}});
          return;
        }
        secret = std::move(*opened);
      }
      try {
        webhooks_.put(change.workspace_uuid, change.link_uuid, change.webhook_url, secret);
      } catch (const ApiError& e) {
        // A change the webhooks service refuses for what it is (a URL or secret its rules no
        // longer accept) would fail forever and hold up every later one: it is dropped, loudly.
        // Only failures to reach it (503) are tried again.
        if (e.code() == ErrorCode::kServiceUnavailable || e.code() == ErrorCode::kInternalError) {
          throw;
        }
        log::error("link_webhook_refused", {{"link_uuid", change.link_uuid}, {"error", e.what()}});
      }
    });
  } catch (const std::exception& e) {
    log::warn("link_webhook_changes_deferred", {{"link_uuid", link_uuid}, {"error", e.what()}});
  }
}

}  // namespace feedback::links
