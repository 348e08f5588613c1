#include "services/links/links_service.h"

#include <catch2/catch.hpp>

#include "services/links/question_types.h"

namespace links = feedback::links;

TEST_CASE("links: slugs generated from names", "[links]") {
  CHECK(links::slugFromName("Customer NPS Survey") == "customer-nps-survey");
  CHECK(links::slugFromName("  Hello,  World!! ") == "hello-world");
  CHECK(links::slugFromName("Détail ☕") == "d-tail");
  CHECK(links::slugFromName("日本語") == "link");
  std::string long_slug = links::slugFromName(std::string(300, 'a'));
  CHECK(long_slug.size() <= links::kMaxSlugLength - 8);
  CHECK(links::isValidSlug(long_slug + "-999"));
}

TEST_CASE("links: slug validation", "[links]") {
  CHECK(links::isValidSlug("nps"));
  CHECK(links::isValidSlug("my-form-2"));
  CHECK_FALSE(links::isValidSlug("Bad Slug"));
  CHECK_FALSE(links::isValidSlug("double--hyphen"));
  CHECK_FALSE(links::isValidSlug("-leading"));
  CHECK_FALSE(links::isValidSlug("trailing-"));
  CHECK_FALSE(links::isValidSlug(""));
  CHECK_FALSE(links::isValidSlug(std::string(65, 'a')));
  CHECK(links::isValidSlug(std::string(64, 'a')));
}

TEST_CASE("links: field keys generated from prompts", "[links]") {
  CHECK(links::fieldKeyFromPrompt("Overall satisfaction") == "overall_satisfaction");
  CHECK(links::fieldKeyFromPrompt("What's your e-mail?") == "what_s_your_e_mail");
  CHECK(links::fieldKeyFromPrompt("???") == "question");
  CHECK(links::isValidFieldKey("nps_score"));
  CHECK_FALSE(links::isValidFieldKey("NPS"));
  CHECK_FALSE(links::isValidFieldKey("a__b"));
  CHECK_FALSE(links::isValidFieldKey("_a"));
}

TEST_CASE("links: the question-type table holds the 13 types of the spec", "[links]") {
  CHECK(links::questionTypes().size() == 13);
  CHECK(links::findQuestionType("voice") != nullptr);
  CHECK(links::findQuestionType(links::kDefaultQuestionType) != nullptr);
  CHECK(links::findQuestionType("telepathy") == nullptr);
  CHECK(links::findQuestionType("") == nullptr);
}
