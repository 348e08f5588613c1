#include "common/core/names.h"

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("names: slugs", "[names]") {
  CHECK(feedback::isValidSlug("nps"));
  CHECK(feedback::isValidSlug("my-form-2"));
  CHECK_FALSE(feedback::isValidSlug("Bad Slug"));
  CHECK_FALSE(feedback::isValidSlug("double--hyphen"));
  CHECK_FALSE(feedback::isValidSlug("-leading"));
  CHECK_FALSE(feedback::isValidSlug("trailing-"));
  CHECK_FALSE(feedback::isValidSlug(""));
  CHECK_FALSE(feedback::isValidSlug(std::string(65, 'a')));
  CHECK(feedback::isValidSlug(std::string(64, 'a')));
}

TEST_CASE("names: field keys", "[names]") {
  CHECK(feedback::isValidFieldKey("nps_score"));
  CHECK_FALSE(feedback::isValidFieldKey("NPS"));
  CHECK_FALSE(feedback::isValidFieldKey("a__b"));
  CHECK_FALSE(feedback::isValidFieldKey("_a"));
}
