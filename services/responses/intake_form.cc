#include "services/responses/intake_form.h"

#include <boost/json/parse.hpp>

#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/json_text.h"
#include "common/questions/answer_rules.h"

namespace feedback::responses {
namespace {

namespace lv1 = feedback::links::v1;

boost::json::object objectOf(const std::string& json) {
  if (json.empty()) return {};
  boost::system::error_code ec;
  auto value = boost::json::parse(json, ec);
  if (ec || !value.is_object()) {
    throw ApiError(ErrorCode::kValidationError, "A question of the link is malformed.");
  }
  return std::move(value.as_object());
}

}  // namespace

std::vector<questions::Question> questionsOf(const lv1::Link& link) {
  std::vector<questions::Question> out;
  out.reserve(static_cast<std::size_t>(link.questions_size()));
  for (const auto& q : link.questions()) {
    questions::Question question;
    question.uuid = q.uuid();
    question.field_key = q.field_key();
    question.prompt = q.prompt();
    question.response_type = q.response_type();
    question.configuration = objectOf(q.configuration_json());
    question.condition = objectOf(q.condition_json());
    question.required = q.required();
    question.fallback_to_text = q.fallback_to_text();
    question.enable_dynamic_probing = q.enable_dynamic_probing();
    question.evaluator_config = objectOf(q.evaluator_config_json());
    out.push_back(std::move(question));
  }
  return out;
}

IntakeForm::IntakeForm(const feedback::responses::v1::IntakeLink& link)
    : workspace_uuid_(link.workspace_uuid()), link_(link.link()), rules_(questionsOf(link.link())) {
  if (!isUuid(workspace_uuid_) || !isUuid(link_.uuid())) {
    throw ApiError(ErrorCode::kValidationError, "The link and its workspace must be given.",
                   {{"link", "needs workspace_uuid and link.uuid"}});
  }
  std::vector<std::string> uuids;
  for (const auto& q : link_.questions()) uuids.push_back(q.uuid());
  facts_layout_ = std::make_shared<const FactsLayout>(uuids);
}

std::shared_ptr<const IntakeForm> IntakeForms::of(const feedback::responses::v1::IntakeLink& link) {
  // Without a version nothing tells one state of the link from another.
  if (link.link().version() <= 0) return std::make_shared<const IntakeForm>(link);
  std::string key = link.workspace_uuid();
  key += '/';
  key += link.link().uuid();
  key += '/';
  key += std::to_string(link.link().version());
  {
    std::lock_guard lock(mutex_);
    if (auto it = forms_.find(key); it != forms_.end()) return it->second;
  }
  auto form = std::make_shared<const IntakeForm>(link);  // outside the lock: it parses
  std::lock_guard lock(mutex_);
  // Old versions are never asked for again; past the bound the table starts over.
  if (forms_.size() >= max_entries_) forms_.clear();
  forms_.emplace(std::move(key), form);
  return form;
}

void IntakeForm::requireActive() const {
  if (link_.status() != "active") {
    throw ApiError(ErrorCode::kLinkPaused, "This feedback link is paused and takes no responses.");
  }
}

feedback::responses::v1::Answer makeAnswer(const questions::Question& question,
                                           const boost::json::value& value, std::string uuid,
                                           std::string question_text) {
  feedback::responses::v1::Answer a;
  a.set_uuid(uuid.empty() ? newUuid() : std::move(uuid));
  a.set_question_uuid(question.uuid);
  a.set_field_key(question.field_key);
  a.set_response_type(question.response_type);
  a.set_question_text(question_text.empty() ? question.prompt : std::move(question_text));
  if (!value.is_null()) a.set_value_json(jsonText(value));
  a.set_ai_insights_json("{}");
  if (value.is_null()) return a;
  const auto extra = questions::extraOf(question.response_type);
  if (extra == questions::AnswerExtra::kRatingDetails) {
    auto details = questions::ratingDetails(question, value);
    auto* out = a.mutable_rating_details();
    out->set_value(details.value);
    out->set_max_value(details.max_value);
    out->set_scale_type(details.scale_type);
  } else if (extra == questions::AnswerExtra::kSelectedCard) {
    if (auto card = questions::selectedCard(question, value)) {
      auto* out = a.mutable_selected_card();
      out->set_card_id(card->card_id);
      out->set_label(card->label);
      out->set_media_url(card->media_url);
      out->set_media_type(card->media_type);
    }
  }
  return a;
}

boost::json::value valueOf(const feedback::responses::v1::Answer& answer) {
  if (answer.value_json().empty()) return nullptr;
  return boost::json::parse(answer.value_json());
}

}  // namespace feedback::responses
