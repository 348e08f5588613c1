#include "services/links/links_service.h"

#include <algorithm>
#include <set>

#include "common/errors.h"
#include "common/ids.h"
#include "common/pagination.h"
#include "common/plans.h"
#include "services/links/question_types.h"

namespace feedback::links {
namespace {

constexpr std::size_t kMaxNameLength = 200;
constexpr std::size_t kMaxPromptLength = 2000;
constexpr std::size_t kMaxQuestions = 100;
constexpr std::string_view kDefaultThankYou = "Thanks for your response!";

std::string trimmed(const std::string& text) {
  auto first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string::npos) return {};
  auto last = text.find_last_not_of(" \t\r\n\f\v");
  return text.substr(first, last - first + 1);
}

// Lowercase ASCII letters and digits joined by single `separator`s, at most `limit` long.
std::string normalizeWords(const std::string& text, char separator, std::size_t limit) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) && c < 0x80) {
      out += static_cast<char>(std::tolower(c));
    } else if (!out.empty() && out.back() != separator) {
      out += separator;
    }
  }
  if (out.size() > limit) out.resize(limit);
  while (!out.empty() && out.back() == separator) out.pop_back();
  return out;
}

bool isWordsJoinedBy(const std::string& text, char separator, std::size_t limit) {
  if (text.empty() || text.size() > limit) return false;
  if (text.front() == separator || text.back() == separator) return false;
  char previous = 0;
  for (char c : text) {
    bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && !(c == separator && previous != separator)) return false;
    previous = c;
  }
  return true;
}

void fillSettings(const v1::LinkSettings& in, v1::LinkSettings& out) {
  if (in.has_description()) out.set_description(in.description());
  out.set_thank_you_message(in.has_thank_you_message() ? in.thank_you_message()
                                                       : std::string(kDefaultThankYou));
  if (in.has_redirect_url()) out.set_redirect_url(in.redirect_url());
  out.set_tts_enabled(in.tts_enabled());
  out.set_live_transcription(in.live_transcription());
}

// Builds the questions with their defaults (SPEC.md rule 5), in request order.
void buildQuestions(const v1::CreateLinkRequest& request, v1::Link& link) {
  if (static_cast<std::size_t>(request.questions_size()) > kMaxQuestions) {
    throw ApiError(ErrorCode::kValidationError, "A link holds at most 100 questions.",
                   {{"questions", "at most 100 items"}});
  }
  std::set<std::string> keys;
  for (int i = 0; i < request.questions_size(); ++i) {
    const auto& draft = request.questions(i);
    const std::string path = "questions[" + std::to_string(i) + "]";
    std::string prompt = draft.has_prompt() ? trimmed(draft.prompt()) : std::string();
    if (prompt.empty()) {
      throw ApiError(ErrorCode::kValidationError, "Every question needs a prompt.",
                     {{path + ".prompt", "required"}});
    }
    if (draft.prompt().size() > kMaxPromptLength) {
      throw ApiError(ErrorCode::kValidationError, "The prompt is too long.",
                     {{path + ".prompt", "at most 2000 characters"}});
    }
    std::string type = draft.has_type() ? draft.type() : std::string(kDefaultQuestionType);
    if (!findQuestionType(type)) {
      throw ApiError(ErrorCode::kInvalidQuestionType, "Unknown question type '" + type + "'.",
                     {{path + ".type", "unknown question type"}});
    }
    std::string key;
    if (draft.has_field_key()) {
      key = draft.field_key();
      if (!isValidFieldKey(key)) {
        throw ApiError(ErrorCode::kValidationError, "Invalid field_key.",
                       {{path + ".field_key", "snake_case, at most 64 characters"}});
      }
      if (keys.count(key)) {
        throw ApiError(ErrorCode::kValidationError, "Duplicate field_key '" + key + "'.",
                       {{path + ".field_key", "already used by an earlier question"}});
      }
    } else {
      std::string base = fieldKeyFromPrompt(prompt);
      key = base;
      for (int n = 2; keys.count(key); ++n) key = base + "_" + std::to_string(n);
    }
    keys.insert(key);

    auto* q = link.add_questions();
    q->set_uuid(newUuid());
    q->set_prompt(draft.prompt());
    q->set_field_key(key);
    q->set_response_type(type);
    q->set_configuration_json(draft.has_configuration_json() ? draft.configuration_json() : "{}");
    q->set_order(draft.has_order() ? draft.order() : 0);
    q->set_required(draft.has_required() && draft.required());
    q->set_condition_json(draft.has_condition_json() ? draft.condition_json() : "{}");
    q->set_enable_dynamic_probing(draft.has_enable_dynamic_probing() &&
                                  draft.enable_dynamic_probing());
    q->set_fallback_to_text(!draft.has_fallback_to_text() || draft.fallback_to_text());
    q->set_evaluator_config_json(draft.has_evaluator_config_json() ? draft.evaluator_config_json()
                                                                   : "{}");
  }
}

// Questions come back sorted by (order, position in the request).
void sortQuestions(v1::Link& link) {
  auto* questions = link.mutable_questions();
  std::stable_sort(
      questions->begin(), questions->end(),
      [](const v1::Question& a, const v1::Question& b) { return a.order() < b.order(); });
}

std::string requireLinkName(const v1::CreateLinkRequest& request) {
  std::string name = request.has_name() ? trimmed(request.name()) : std::string();
  if (name.empty()) throw ApiError(ErrorCode::kNameRequired, "A name is required.");
  if (request.name().size() > kMaxNameLength) {
    throw ApiError(ErrorCode::kValidationError, "The name is too long.",
                   {{"name", "at most 200 characters"}});
  }
  return request.name();
}

void requireStatus(const std::string& status) {
  if (status != "active" && status != "paused") {
    throw ApiError(ErrorCode::kValidationError, "Invalid status.",
                   {{"status", "one of active, paused"}});
  }
}

}  // namespace

bool isValidSlug(const std::string& slug) {
  return isWordsJoinedBy(slug, '-', kMaxSlugLength);
}

std::string slugFromName(const std::string& name) {
  std::string slug = normalizeWords(name, '-', kMaxSlugLength - 8);
  return slug.empty() ? "link" : slug;
}

bool isValidFieldKey(const std::string& key) {
  return isWordsJoinedBy(key, '_', kMaxFieldKeyLength);
}

std::string fieldKeyFromPrompt(const std::string& prompt) {
  std::string key = normalizeWords(prompt, '_', kMaxFieldKeyLength - 4);
  return key.empty() ? "question" : key;
}

void LinksService::present(v1::Link& link, const feedback::common::v1::Caller& caller) const {
  link.set_public_url(settings_.public_scheme + "://" + caller.workspace().host() + "/i/" +
                      link.slug());
}

v1::CreateLinkResponse LinksService::createLink(LinksStore& store,
                                                const v1::CreateLinkRequest& request) {
  v1::Link link;
  link.set_uuid(newUuid());
  link.set_name(requireLinkName(request));
  if (request.has_slug() && !isValidSlug(request.slug())) {
    throw ApiError(ErrorCode::kInvalidSlug,
                   "A slug is lowercase letters and digits joined by single hyphens, at most 64.",
                   {{"slug", "must match ^[a-z0-9]+(-[a-z0-9]+)*$"}});
  }
  link.set_slug(request.has_slug() ? request.slug() : std::string());
  link.set_status(request.has_status() ? request.status() : "active");
  requireStatus(link.status());
  fillSettings(request.settings(), *link.mutable_settings());
  buildQuestions(request, link);

  const auto& caller = request.caller();
  switch (store.insertLink(caller.workspace().uuid(), caller.workspace().link_quota(),
                           slugFromName(link.name()), link)) {
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
  sortQuestions(link);
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

v1::DeleteLinkResponse LinksService::deleteLink(LinksStore& store,
                                                const v1::DeleteLinkRequest& request) {
  if (!isUuid(request.link_uuid()) ||
      !store.deleteLink(request.caller().workspace().uuid(), request.link_uuid())) {
    throw ApiError(ErrorCode::kNotFound, "No such link.");
  }
  return {};
}

}  // namespace feedback::links
