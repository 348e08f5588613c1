// Email addresses masked in text shown outside the workspace (a shared report's quotes).
#include "common/core/email_mask.h"

#include <catch2/catch.hpp>

using feedback::maskEmails;

TEST_CASE("email addresses in text read [email]") {
  CHECK(maskEmails("write to ann@example.com, please") == "write to [email] please");
  CHECK(maskEmails("ann.lee+x@mail.example.org") == "[email]");
  CHECK(maskEmails("two\nlines: b@c.de\tand more") == "two\nlines: [email]\tand more");
  // Not addresses: no dot after the '@', nothing before it, or an '@' alone.
  CHECK(maskEmails("@team meet at 5@home") == "@team meet at 5@home");
  CHECK(maskEmails("rate 4.5 @ store") == "rate 4.5 @ store");
  CHECK(maskEmails("") == "");
}
