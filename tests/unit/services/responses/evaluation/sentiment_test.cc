// The C++ VADER against scores the reference port (npm vader-sentiment 1.1.3) gives; the
// e2e test (tests/e2e/vader_agreement.js) compares hundreds more with the package itself.
#include "services/responses/evaluation/sentiment.h"

#include <catch2/catch.hpp>

using feedback::responses::evaluation::SentimentAnalyzer;
using feedback::responses::evaluation::sentimentLabel;

namespace {

const SentimentAnalyzer& analyzer() {
  static const SentimentAnalyzer instance;
  return instance;
}

double compound(const char* text) {
  return analyzer().scores(text).compound;
}

}  // namespace

TEST_CASE("sentiment: the lexicon is embedded", "[evaluation]") {
  REQUIRE(analyzer().valence("good") != nullptr);
  CHECK(*analyzer().valence("good") == Approx(1.9));
  CHECK(*analyzer().valence(":)") == Approx(2.0));
  CHECK(analyzer().valence("GOOD") == nullptr);  // entries are matched as written
}

TEST_CASE("sentiment: compound scores of the reference port", "[evaluation]") {
  // Values printed by node with vader-sentiment 1.1.3's polarity_scores.
  CHECK(compound("VADER is smart, handsome, and funny.") == Approx(0.8316).margin(1e-4));
  CHECK(compound("VADER is smart, handsome, and funny!") == Approx(0.8439).margin(1e-4));
  CHECK(compound("VADER is very smart, handsome, and funny.") == Approx(0.8545).margin(1e-4));
  CHECK(compound("VADER is VERY SMART, handsome, and FUNNY.") == Approx(0.9227).margin(1e-4));
  CHECK(compound("VADER is VERY SMART, handsome, and FUNNY!!!") == Approx(0.9342).margin(1e-4));
  CHECK(compound("The book was good.") == Approx(0.4404).margin(1e-4));
  CHECK(compound("The book was kind of good.") == Approx(0.3832).margin(1e-4));
  CHECK(compound("A really bad, horrible book.") == Approx(-0.8211).margin(1e-4));
  CHECK(compound("At least it isn't a horrible book.") == Approx(0.431).margin(1e-4));
  CHECK(compound("Today SUX!") == Approx(-0.5461).margin(1e-4));
  CHECK(compound("Today only kinda sux! But I'll get by, lol") == Approx(0.2228).margin(1e-4));
  CHECK(compound(":) and :D") == Approx(0.7925).margin(1e-4));
  CHECK(compound("") == 0);
  // The port compares negations case-sensitively: "Not" negates nothing, "not" does.
  CHECK(compound("Not bad at all") == Approx(-0.5423).margin(1e-4));
  CHECK(compound("not bad at all") > 0.3);
}

TEST_CASE("sentiment: labels by VADER's thresholds", "[evaluation]") {
  CHECK(sentimentLabel(0.05) == "positive");
  CHECK(sentimentLabel(0.0499) == "neutral");
  CHECK(sentimentLabel(-0.0499) == "neutral");
  CHECK(sentimentLabel(-0.05) == "negative");
}
