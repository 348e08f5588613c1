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

TEST_CASE("names: subdomains", "[names]") {
  CHECK(feedback::isValidSubdomain("acme-1"));
  CHECK(feedback::isValidSubdomain(std::string(63, 'a')));
  CHECK_FALSE(feedback::isValidSubdomain("-acme"));
  CHECK_FALSE(feedback::isValidSubdomain("acme-"));
  CHECK_FALSE(feedback::isValidSubdomain("Acme"));
  CHECK_FALSE(feedback::isValidSubdomain("a.b"));
  CHECK_FALSE(feedback::isValidSubdomain(""));
  CHECK_FALSE(feedback::isValidSubdomain(std::string(64, 'a')));
}

TEST_CASE("names: the subdomain of a public host", "[names]") {
  CHECK(feedback::subdomainOfHost("acme.example.com", "example.com") == "acme");
  CHECK(feedback::subdomainOfHost("ACME.Example.COM:8443", "example.com") == "acme");
  CHECK(feedback::subdomainOfHost("acme.example.com.", "example.com") == "acme");
  CHECK(feedback::subdomainOfHost("a.b.example.com:80", "example.com") == "a.b");
  CHECK(feedback::subdomainOfHost("example.com", "example.com").empty());
  CHECK(feedback::subdomainOfHost(".example.com", "example.com").empty());
  CHECK(feedback::subdomainOfHost("acmeexample.com", "example.com").empty());
  CHECK(feedback::subdomainOfHost("acme.example.com.evil", "example.com").empty());
  CHECK(feedback::subdomainOfHost("", "example.com").empty());
  CHECK(feedback::subdomainOfHost(std::string(250, 'a') + ".example.com", "example.com").empty());
}

TEST_CASE("names: a slug, field key or subdomain made from a name", "[names]") {
  using feedback::nameToSlug;
  CHECK(nameToSlug("Customer Satisfaction -- Q3!", '-', 64) == "customer-satisfaction-q3");
  CHECK(nameToSlug("How likely are you to recommend us?", '_', 20) == "how_likely_are_you_t");
  // Cut where a separator stood: none is left at the end.
  CHECK(nameToSlug("abc def", '-', 4) == "abc");
  CHECK(nameToSlug("  Ünïcode name ", '-', 64) == "n-code-name");
  CHECK(nameToSlug("¿?", '-', 64).empty());
  CHECK(feedback::isValidSlug(nameToSlug("  A  B  ", '-', 64)));
}
