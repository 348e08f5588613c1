// Key phrases (RAKE), extractive summaries, the actionable rules, custom fields and clarity
// of the local evaluator.
#include <catch2/catch.hpp>

#include "common/questions/answer_rules.h"
#include "services/responses/evaluation/actionable.h"
#include "services/responses/evaluation/clarity.h"
#include "services/responses/evaluation/custom_fields.h"
#include "services/responses/evaluation/extractive_summary.h"
#include "services/responses/evaluation/key_phrases.h"
#include "services/responses/evaluation/text_units.h"

using namespace feedback::responses::evaluation;

namespace {

std::vector<std::string> topics(std::string_view text, std::size_t limit = 5) {
  std::vector<std::string> out;
  for (const auto& p : keyPhrases(text, limit)) out.push_back(p.text);
  return out;
}

const char* kLong =
    "The checkout page was slow and crashed twice while I was paying with my credit card. "
    "The support team answered quickly and refunded the duplicate charge, which I appreciated. "
    "Please fix the payment form, improve the search filters, add a dark mode to the mobile "
    "app and send shipping updates by email, because the delivery of my last order took three "
    "weeks and nobody told me why.";

}  // namespace

TEST_CASE("text units: words, sentences, stems, clipping", "[evaluation]") {
  auto w = words("Don't STOP—the follow-up’s great, 3 times!");
  std::vector<std::string> got;
  for (const auto& x : w) got.push_back(x.text);
  CHECK(got ==
        std::vector<std::string>{"don't", "stop", "the", "follow-up's", "great", "3", "times"});
  CHECK(w[1].ends_phrase);  // the em dash
  CHECK_FALSE(w[0].ends_phrase);
  CHECK(w[4].ends_phrase);
  auto s = sentences("First one. Second one!! Third?\nFourth line with 3.5 stars");
  REQUIRE(s.size() == 4);
  CHECK(s[1].text == "Second one!!");
  CHECK(s[3].text == "Fourth line with 3.5 stars");
  CHECK(stem("pricing") == stem("prices"));
  CHECK(stem("price") == stem("prices"));
  CHECK(stem("deliveries") == stem("delivery"));
  CHECK(feedback::questions::characterCount("café") == 4);
  CHECK(jsLower("ÉNORME Þ Привет ΑΛΦΑ ŒUVRE Ÿ ×") == "énorme þ привет αλφα œuvre ÿ ×");
  CHECK(jsLower("abc\xff") == "abc\xff");  // a stray byte is kept
  CHECK(jsLength("😀") == 2);
  CHECK(clip("short", 10) == "short");
  const auto cut = clip("one two three four five six", 12);
  CHECK(feedback::questions::characterCount(cut) <= 12);
  CHECK(cut == "one two…");
  // Stop words, the last ones of the list as well as the first (it is searched sorted).
  for (const char* word : {"a", "yourselves", "lot", "still", "way", "you're"}) {
    CHECK(isStopWord(word));
  }
  for (const char* word : {"delivery", "", "stills", "zzz", "A"}) CHECK_FALSE(isStopWord(word));
}

TEST_CASE("key phrases: RAKE scores longer content runs first, at most the limit", "[evaluation]") {
  // Candidates of three words outscore two, two outscore one; longer runs are no topics.
  CHECK(topics(kLong) == std::vector<std::string>{"support team answered", "send shipping updates",
                                                  "last order took", "checkout page",
                                                  "crashed twice"});
  // Each phrase once; a word scores degree over frequency ("checkout": 6 / 3 beats "slow": 1).
  CHECK(topics("The checkout page is slow. The checkout page crashed. Checkout.", 5) ==
        std::vector<std::string>{"checkout page crashed", "checkout page", "checkout", "slow"});
  // Stop words and punctuation split candidates; digits alone and two-letter words are no topics.
  CHECK(topics("It is ok, 42 of it").empty());
  CHECK(topics("Great product and easy to set up.") ==
        std::vector<std::string>{"great product", "easy", "set"});
  CHECK(topics(kLong, 2).size() == 2);
  // A long unbroken run still yields topics, in pieces of at most three words.
  CHECK(topics("Support answered within minutes today") ==
        std::vector<std::string>{"support answered within", "minutes today"});
  CHECK(topics("").empty());
}

TEST_CASE("summary: the text when short, else its best sentences within 200 characters",
          "[evaluation]") {
  CHECK(extractiveSummary("  Fast   and friendly.  ", {}) == "Fast and friendly.");
  const auto summary = extractiveSummary(kLong, keyPhrases(kLong));
  CHECK(feedback::questions::characterCount(summary) <= 200);
  CHECK_FALSE(summary.empty());
  CHECK(std::string_view(kLong).find(summary.substr(0, 20)) != std::string_view::npos);
  // One endless sentence is cut at a word boundary.
  std::string endless;
  for (int i = 0; i < 60; ++i) endless += "word" + std::to_string(i) + " ";
  const auto cut = extractiveSummary(endless, keyPhrases(endless));
  CHECK(feedback::questions::characterCount(cut) <= 200);
  CHECK(cut.ends_with("…"));
}

TEST_CASE("actionable: requests and problem reports, not praise or negated problems",
          "[evaluation]") {
  CHECK(isActionable("Please make exports faster for large surveys"));
  CHECK(isActionable("Add a dark mode."));
  CHECK(isActionable("It would be nice to export to Excel."));
  CHECK(isActionable("You should call people back."));
  CHECK(isActionable("The mobile app crashes every time I upload a photo."));
  CHECK(isActionable("The export doesn't work on Safari."));
  CHECK(isActionable("Checkout is not working since Monday"));
  CHECK(isActionable("I was charged twice and nobody answered my emails."));
  CHECK(isActionable("The reports are slow and the export keeps failing."));
  CHECK_FALSE(isActionable("I love the new dashboard."));
  CHECK_FALSE(isActionable("Fantastic support, the team solved everything quickly."));
  CHECK_FALSE(isActionable("I had no issues at all and the staff were wonderful."));
  CHECK_FALSE(isActionable("Never a problem with the delivery."));
  CHECK_FALSE(isActionable("I placed the order on Tuesday."));
  CHECK_FALSE(isActionable("Support answered within minutes today."));
  CHECK_FALSE(isActionable("Update was smooth."));
  CHECK_FALSE(isActionable(""));
}

TEST_CASE("custom fields: the first sentence that holds every word of the name", "[evaluation]") {
  auto values = customFields("Support was quick. The pricing is too high for small teams!",
                             {"price", "support_quality", "small_team", "churn_risk"});
  REQUIRE(values.size() == 4);
  CHECK(values[0].second == "The pricing is too high for small teams!");
  CHECK_FALSE(values[1].second.has_value());                              // "quality" is not said
  CHECK(values[2].second == "The pricing is too high for small teams!");  // "teams": "team"
  CHECK_FALSE(values[3].second.has_value());
  CHECK(readableFieldName("delivery_time") == "delivery time");
  CHECK(customFields("anything", {}).empty());
}

TEST_CASE("clarity: vague and short answers score low, specific ones high", "[evaluation]") {
  CHECK(clarity("ok", {}) == 0.0);
  CHECK(clarity("not sure", {}) < 0.2);
  CHECK(clarity("dunno", {}) == 0.0);
  const double detailed = clarity(
      "The invoice export took 40 minutes yesterday and failed twice with a timeout error, "
      "so our finance team could not close the month.",
      {});
  CHECK(detailed > 0.8);
  CHECK(detailed <= 1.0);
  const std::string text = "The price of the pro plan is too high for our team of 12.";
  const double covered = clarity(text, customFields(text, {"price"}));
  const double uncovered = clarity(text, customFields(text, {"delivery"}));
  CHECK(covered > uncovered + 0.25);
}

TEST_CASE("follow-up prompts: uncovered custom fields first, then by sentiment and turn",
          "[evaluation]") {
  CHECK(followUpPrompt({{"delivery_time", std::nullopt}}, 0.5, 0) ==
        "Could you tell us more about delivery time?");
  CHECK(followUpPrompt({{"price", std::string("x")}}, -0.6, 0).find("went wrong") !=
        std::string::npos);
  CHECK(followUpPrompt({}, 0.6, 0).find("liked") == std::string::npos);
  CHECK(followUpPrompt({}, 0.6, 0).find("like most") != std::string::npos);
  CHECK(followUpPrompt({}, 0.0, 1).find("anything else") != std::string::npos);
}
