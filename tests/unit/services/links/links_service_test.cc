#include "services/links/links_service.h"

#include <catch2/catch.hpp>

#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/questions/question_types.h"

namespace links = feedback::links;

TEST_CASE("links: slugs generated from names", "[links]") {
  CHECK(links::slugFromName("Customer NPS Survey") == "customer-nps-survey");
  CHECK(links::slugFromName("  Hello,  World!! ") == "hello-world");
  CHECK(links::slugFromName("Détail ☕") == "d-tail");
  CHECK(links::slugFromName("日本語") == "link");
  std::string long_slug = links::slugFromName(std::string(300, 'a'));
  CHECK(long_slug.size() <= feedback::kMaxSlugLength - 8);
  CHECK(feedback::isValidSlug(long_slug + "-999"));
}

TEST_CASE("links: field keys generated from prompts", "[links]") {
  CHECK(links::fieldKeyFromPrompt("Overall satisfaction") == "overall_satisfaction");
  CHECK(links::fieldKeyFromPrompt("What's your e-mail?") == "what_s_your_e_mail");
  CHECK(links::fieldKeyFromPrompt("???") == "question");
}

namespace {

links::v1::QuestionDraft draft(const char* prompt, const char* type = nullptr,
                               const char* key = nullptr) {
  links::v1::QuestionDraft d;
  d.set_prompt(prompt);
  if (type) d.set_type(type);
  if (key) d.set_field_key(key);
  return d;
}

feedback::ErrorCode buildError(
    const google::protobuf::RepeatedPtrField<links::v1::QuestionDraft>& drafts,
    const std::map<std::string, links::v1::Question>* existing = nullptr) {
  links::v1::Link link;
  try {
    links::buildQuestions(drafts, existing, link);
  } catch (const feedback::ApiError& e) {
    return e.code();
  }
  return feedback::ErrorCode::kInternalError;
}

}  // namespace

// Omitted optional question fields come back with their defaults (docs/api.md "Resources").
TEST_CASE("links: question defaults", "[links]") {
  google::protobuf::RepeatedPtrField<links::v1::QuestionDraft> drafts;
  *drafts.Add() = draft("Overall satisfaction");
  links::v1::Link link;
  links::buildQuestions(drafts, nullptr, link);
  REQUIRE(link.questions_size() == 1);
  const auto& q = link.questions(0);
  CHECK(q.response_type() == "voice");
  CHECK(q.field_key() == "overall_satisfaction");
  CHECK(q.order() == 0);
  CHECK_FALSE(q.required());
  CHECK(q.configuration_json() == "{}");
  CHECK(q.condition_json() == "{}");
  CHECK(q.evaluator_config_json() == "{}");
  CHECK_FALSE(q.enable_dynamic_probing());
  CHECK(q.fallback_to_text());
  CHECK(feedback::isUuid(q.uuid()));
}

TEST_CASE("links: generated field keys avoid explicit ones and each other", "[links]") {
  google::protobuf::RepeatedPtrField<links::v1::QuestionDraft> drafts;
  *drafts.Add() = draft("Name");
  *drafts.Add() = draft("Name");
  *drafts.Add() = draft("Something else", "text", "name");
  links::v1::Link link;
  links::buildQuestions(drafts, nullptr, link);
  CHECK(link.questions(0).field_key() == "name_2");
  CHECK(link.questions(1).field_key() == "name_3");
  CHECK(link.questions(2).field_key() == "name");
}

TEST_CASE("links: questions sort by (order, position); conditions look back that way", "[links]") {
  google::protobuf::RepeatedPtrField<links::v1::QuestionDraft> drafts;
  auto later = draft("Why", "text", "why");
  later.set_order(2);
  later.set_condition_json(R"({"field": "score", "operator": "less_than", "value": 7})");
  *drafts.Add() = later;
  auto first = draft("Score", "number", "score");
  first.set_order(1);
  *drafts.Add() = first;
  links::v1::Link link;
  links::buildQuestions(drafts, nullptr, link);
  CHECK(link.questions(0).field_key() == "score");
  CHECK(link.questions(1).field_key() == "why");

  drafts.Mutable(0)->set_order(0);  // now `why` comes first and looks forward: refused
  CHECK(buildError(drafts) == feedback::ErrorCode::kInvalidCondition);
}

TEST_CASE("links: question limits and types", "[links]") {
  google::protobuf::RepeatedPtrField<links::v1::QuestionDraft> drafts;
  for (int i = 0; i < 101; ++i) *drafts.Add() = draft("Q");
  CHECK(buildError(drafts) == feedback::ErrorCode::kValidationError);
  drafts.Clear();
  *drafts.Add() = draft("Q", "telepathy");
  CHECK(buildError(drafts) == feedback::ErrorCode::kInvalidQuestionType);
  drafts.Clear();
  *drafts.Add() = draft("   ");
  CHECK(buildError(drafts) == feedback::ErrorCode::kValidationError);
  drafts.Clear();
  *drafts.Add() = draft(std::string(2001, 'x').c_str());
  CHECK(buildError(drafts) == feedback::ErrorCode::kValidationError);
  drafts.Clear();
  *drafts.Add() = draft("A", "text", "same");
  *drafts.Add() = draft("B", "text", "same");
  CHECK(buildError(drafts) == feedback::ErrorCode::kValidationError);
  drafts.Clear();
  auto bad = draft("A", "text");
  bad.set_configuration_json("[1]");
  *drafts.Add() = bad;
  CHECK(buildError(drafts) == feedback::ErrorCode::kInvalidConfiguration);
}

TEST_CASE("links: PATCH keeps uuids it knows and refuses others", "[links]") {
  links::v1::Question old;
  old.set_uuid("123e4567-e89b-42d3-a456-426614174000");
  old.set_date_created_micros(42);
  std::map<std::string, links::v1::Question> existing{{old.uuid(), old}};
  google::protobuf::RepeatedPtrField<links::v1::QuestionDraft> drafts;
  auto kept = draft("Kept");
  kept.set_uuid(old.uuid());
  *drafts.Add() = kept;
  *drafts.Add() = draft("New");
  links::v1::Link link;
  links::buildQuestions(drafts, &existing, link);
  CHECK(link.questions(0).uuid() == old.uuid());
  CHECK(link.questions(0).date_created_micros() == 42);
  CHECK(link.questions(1).uuid() != old.uuid());
  CHECK(link.questions(1).date_created_micros() == 0);

  *drafts.Add() = kept;  // the same uuid twice
  CHECK(buildError(drafts, &existing) == feedback::ErrorCode::kValidationError);
  drafts.Mutable(2)->set_uuid("223e4567-e89b-42d3-a456-426614174000");
  CHECK(buildError(drafts, &existing) == feedback::ErrorCode::kValidationError);
  CHECK(buildError(drafts, nullptr) == feedback::ErrorCode::kValidationError);
}
