#pragma once
// A link's summary (docs/api.md "AI insights and summaries"): counts, completion rate and, per
// question of the link as it is now, the statistics a team looks at first, built from the
// summary facts of its completed responses (summary_facts.h), one response at a time.
//   nps, rating on an nps scale   nps (100 x (promoters - detractors) / answered), promoters
//                       (9-10), passives (7-8), detractors (0-6), distribution
//   rating, opinion_scale, csat, ces   average, distribution (every value of the scale);
//                       csat also csat (the share of 4 and 5)
//   number, slider      min, max, mean, median (the mean of the middle two when even); a range
//                       slider as {low: {...}, high: {...}}
//   multiple_choice, image_choice, dropdown   counts by option or card id (the question's own)
//   yes_no              yes, no
//   ranking             average_rank (1 = best) and first_place by option
//   matrix              counts by row id, then column id
//   consent             accepted
//   hidden_field        counts of its 20 most frequent values
//   text, long_text, voice, voice_text_fallback   sentiment counts, top_topics (the 10 most
//                       frequent key topics, most frequent first), actionable (how many are)
//   others              {}
// A statistic of no answers is null; answers of a kind the question no longer has are counted
// as answered only.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/core/text_map.h"
#include "common/questions/question_types.h"

namespace feedback {
class JsonWriter;
}

namespace feedback::responses {

inline constexpr std::size_t kSummaryTopTopics = 10;
inline constexpr std::size_t kSummaryTopValues = 20;

class LinkSummary {
 public:
  // The link's questions in display order.
  explicit LinkSummary(std::vector<questions::Question> questions);

  // A layout of the link (FactsLayout, summary_facts.h): its id and its question uuids,
  // comma-separated. Facts that name one are read after it; those whose layout was not
  // given count as responses with no answer.
  void addLayout(std::string_view id, std::string_view uuids);
  // One completed response's facts.
  void add(std::string_view facts);
  // Adds what `other`, a summary of the same questions, has read.
  void merge(const LinkSummary& other);
  int64_t responses() const { return responses_; }

  // The summary's JSON; `started` counts every started response, completed ones included.
  std::string json(const std::string& link_uuid, int64_t started) const;

 private:
 public:
  // The last keys a count of facts' text met, with their counts: most facts repeat a few
  // options or topics, which are then found without hashing them. Not copied with the counts
  // it points into.
  struct RecentKeys {
    std::array<std::pair<std::string_view, int64_t*>, 8> keys{};
    std::size_t next = 0;
    RecentKeys() = default;
    RecentKeys(const RecentKeys&) {}
    RecentKeys& operator=(const RecentKeys&) {
      keys = {};
      next = 0;
      return *this;
    }
  };

 private:
  struct Stats {
    int64_t answered = 0;
    std::map<int64_t, int64_t> ratings;
    std::vector<double> numbers;
    std::vector<double> highs;  // of a range slider (numbers holds the lows)
    TextMap<int64_t> choices;   // also first places (ranking), values (hidden_field) and
                                // cells (matrix: "row\tcolumn")
    TextMap<std::pair<int64_t, int64_t>> ranks;  // by option: sum of ranks, times ranked
    int64_t yes = 0, no = 0;
    int64_t positive = 0, neutral = 0, negative = 0, actionable = 0;
    TextMap<int64_t> topics;
    RecentKeys recent_choices, recent_topics;
  };
  void addFact(Stats& stats, questions::SummaryKind summary, std::string_view kind,
               std::string_view payload);
  // A question's `stats` object's members, by its summary kind.
  static void writeStats(JsonWriter& json, const questions::Question& question,
                         questions::SummaryKind summary, const Stats& stats);
  // The facts of sliders, matrices and hidden fields.
  static void addValueFact(Stats& stats, questions::SummaryKind kind, std::string_view payload);

  std::vector<questions::Question> questions_;
  // By question uuid and by ref (summary_facts.h): facts name questions either way.
  TextMap<std::size_t> index_;
  std::vector<questions::SummaryKind> kinds_;  // by question
  std::vector<std::string> refs_;              // by question: its ref, or uuid when shared
  std::vector<Stats> stats_;
  // By layout id: the index of the question at each position, kNotAQuestion for those the
  // link no longer has.
  static constexpr std::size_t kNotAQuestion = static_cast<std::size_t>(-1);
  TextMap<std::vector<std::size_t>> layouts_;
  int64_t responses_ = 0;
};

// The questions of a link document as the API shows it (GET /v1/links/{uuid}/): uuid,
// field_key, response_type and configuration. VALIDATION_ERROR when it is no such document.
// Only for requests of gateways older than GetLinkSummaryRequest.link (to be removed with it).
std::vector<questions::Question> questionsOfDocument(std::string_view link_json);
// The questions of a link that a summary can sum up: those of a type the table knows.
std::vector<questions::Question> summarised(std::vector<questions::Question> questions);

}  // namespace feedback::responses
