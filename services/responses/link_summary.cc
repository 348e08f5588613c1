#include "services/responses/link_summary.h"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include "common/core/errors.h"
#include "common/core/json_writer.h"
#include "common/questions/answer_rules.h"
#include "common/questions/object_answers.h"
#include "services/responses/summary_facts.h"

namespace feedback::responses {
namespace {

using questions::Question;

// The text up to `separator` (all of it when there is none), taken off the front of `rest`.
// A loop rather than memchr: the fields of a facts line are a few bytes long.
std::string_view cut(std::string_view& rest, char separator) {
  std::size_t end = 0;
  while (end < rest.size() && rest[end] != separator) ++end;
  const auto part = rest.substr(0, end);
  rest.remove_prefix(end == rest.size() ? end : end + 1);
  return part;
}

// The next line of facts, taken off the front of `rest`: memchr, lines are longer.
std::string_view cutLine(std::string_view& rest) {
  const auto end = rest.find('\n');
  const auto part = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
  return part;
}

// Calls `each` with every string of a JSON array of strings, as summary_facts.h writes them;
// false when it is no such array. Strings without escapes (nearly all) are not copied.
template <class Each>
bool forEachString(std::string_view json, Each each) {
  std::size_t i = 0;
  auto skipSpace = [&] {
    while (i < json.size() && (json[i] == ' ' || json[i] == '\n' || json[i] == '\t')) ++i;
  };
  skipSpace();
  if (i >= json.size() || json[i++] != '[') return false;
  skipSpace();
  if (i < json.size() && json[i] == ']') return true;
  while (i < json.size()) {
    if (json[i] != '"') return false;
    const std::size_t start = ++i;
    bool escaped = false;
    while (i < json.size() && json[i] != '"') {
      if (json[i] == '\\') {
        escaped = true;
        ++i;
      }
      ++i;
    }
    if (i >= json.size()) return false;
    if (escaped) {
      boost::system::error_code ec;
      auto v = boost::json::parse(json.substr(start - 1, i - start + 2), ec);
      if (ec || !v.is_string()) return false;
      each(std::string_view(v.get_string()));
    } else {
      each(json.substr(start, i - start));
    }
    ++i;
    skipSpace();
    if (i < json.size() && json[i] == ']') return true;
    if (i >= json.size() || json[i++] != ',') return false;
    skipSpace();
  }
  return false;
}

// The number a facts payload holds (JSON's number syntax); nullopt for anything else.
std::optional<double> numberIn(std::string_view text) {
  double n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(n))
    return std::nullopt;
  return n;
}

// Through the keys counted last: compared byte by byte, not hashed. A map's nodes, keys and
// counts, stay where they are as it grows.
template <class Map>
void countIn(Map& counts, LinkSummary::RecentKeys& recent, std::string_view key) {
  for (auto& [seen, count] : recent.keys) {
    if (count && seen == key) {
      ++*count;
      return;
    }
  }
  auto it = counts.find(key);
  if (it == counts.end()) {
    it = counts.emplace(std::string(key), 1).first;
  } else {
    ++it->second;
  }
  recent.keys[recent.next++ % recent.keys.size()] = {it->first, &it->second};
}

// The options (or card ids) a choice question offers now: the key its type's row names.
// The strings listed under `key` of the question's configuration; of a list of objects (cards),
// their ids.
std::vector<std::string> listedIds(const Question& q, std::string_view key) {
  std::vector<std::string> out;
  const auto* list = questions::setting(q, key);
  if (!list || !list->is_array()) return out;
  for (const auto& item : list->get_array()) {
    const auto* text = item.is_object() ? item.get_object().if_contains("id") : &item;
    if (text && text->is_string()) out.emplace_back(text->get_string());
  }
  return out;
}

std::vector<std::string> choicesOf(const Question& q) {
  const auto* type = questions::findQuestionType(q.response_type);
  return type && !type->choices.empty() ? listedIds(q, type->choices) : std::vector<std::string>{};
}

void writeDistribution(JsonWriter& json, const std::map<int64_t, int64_t>& counts,
                       std::pair<int64_t, int64_t> range) {
  std::map<int64_t, int64_t> all = counts;
  for (int64_t v = range.first; v <= range.second; ++v) all.emplace(v, 0);
  json.key("distribution").beginObject();
  for (const auto& [value, n] : all) json.field(std::to_string(value), n);
  json.endObject();
}

void writeNumberOrNull(JsonWriter& json, std::string_view key, bool present, double value) {
  json.key(key);
  if (present) {
    json.number(value);
  } else {
    json.null();
  }
}

void writeRatingStats(JsonWriter& json, const Question& q,
                      const std::map<int64_t, int64_t>& ratings) {
  const auto scale = questions::scaleOf(q);
  int64_t n = 0, sum = 0, satisfied = 0;
  for (const auto& [value, count] : ratings) {
    n += count;
    sum += value * count;
    if (value >= 4) satisfied += count;
  }
  if (scale.scale_type == "nps") {
    int64_t promoters = 0, passives = 0, detractors = 0;
    for (const auto& [value, count] : ratings) {
      (value >= 9 ? promoters : value >= 7 ? passives : detractors) += count;
    }
    writeNumberOrNull(json, "nps", n > 0,
                      n > 0 ? 100.0 * double(promoters - detractors) / double(n) : 0);
    json.field("promoters", promoters).field("passives", passives).field("detractors", detractors);
  } else {
    writeNumberOrNull(json, "average", n > 0, n > 0 ? double(sum) / double(n) : 0);
  }
  if (scale.scale_type == "csat") {
    writeNumberOrNull(json, "csat", n > 0, n > 0 ? double(satisfied) / double(n) : 0);
  }
  writeDistribution(json, ratings, {scale.min, scale.max});
}

void writeNumberStats(JsonWriter& json, std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const bool any = !values.empty();
  double mean = 0, median = 0;
  if (any) {
    for (double v : values) mean += v;
    mean /= double(values.size());
    const std::size_t mid = values.size() / 2;
    median = values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }
  writeNumberOrNull(json, "min", any, any ? values.front() : 0);
  writeNumberOrNull(json, "max", any, any ? values.back() : 0);
  writeNumberOrNull(json, "mean", any, mean);
  writeNumberOrNull(json, "median", any, median);
}

// The `limit` most frequent entries of `counts`, most frequent first (ties: alphabetical).
template <class Counts>
std::vector<std::pair<std::string_view, int64_t>> mostFrequent(const Counts& counts,
                                                               std::size_t limit) {
  std::vector<std::pair<std::string_view, int64_t>> top(counts.begin(), counts.end());
  const std::size_t keep = std::min(limit, top.size());
  std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(keep), top.end(),
                    [](const auto& a, const auto& b) {
                      return a.second != b.second ? a.second > b.second : a.first < b.first;
                    });
  top.resize(keep);
  return top;
}

template <class Counts>
void writeTopTopics(JsonWriter& json, const Counts& topics) {
  json.key("top_topics").beginArray();
  for (const auto& [topic, n] : mostFrequent(topics, kSummaryTopTopics)) {
    json.beginObject().field("topic", topic).field("count", n).endObject();
  }
  json.endArray();
}

template <class Counts>
int64_t countOf(const Counts& counts, std::string_view key) {
  auto it = counts.find(key);
  return it == counts.end() ? int64_t{0} : it->second;
}

// A ranking's facts: where each option was placed (1 = best).
template <class Ranks, class Counts>
void writeRankingStats(JsonWriter& json, const Question& q, const Ranks& ranks,
                       const Counts& first_places) {
  const auto options = listedIds(q, "options");
  json.key("average_rank").beginObject();
  for (const auto& option : options) {
    auto it = ranks.find(option);
    const bool ranked = it != ranks.end() && it->second.second > 0;
    writeNumberOrNull(json, option, ranked,
                      ranked ? double(it->second.first) / double(it->second.second) : 0);
  }
  json.endObject().key("first_place").beginObject();
  for (const auto& option : options) json.field(option, countOf(first_places, option));
  json.endObject();
}

template <class Counts>
void writeMatrixStats(JsonWriter& json, const Question& q, const Counts& cells) {
  const auto columns = questions::matrixIds(q, "columns");
  json.key("counts").beginObject();
  std::string cell;
  for (auto row : questions::matrixIds(q, "rows")) {
    json.key(row).beginObject();
    for (auto column : columns) {
      cell.assign(row).append(1, '\t').append(column);
      json.field(column, countOf(cells, cell));
    }
    json.endObject();
  }
  json.endObject();
}

void writeSliderStats(JsonWriter& json, const Question& q, const std::vector<double>& lows,
                      const std::vector<double>& highs) {
  const auto* range = questions::setting(q, "range");
  if (!range || !range->is_bool() || !range->get_bool()) return writeNumberStats(json, lows);
  json.key("low").beginObject();
  writeNumberStats(json, lows);
  json.endObject().key("high").beginObject();
  writeNumberStats(json, highs);
  json.endObject();
}

}  // namespace

std::vector<Question> questionsOfDocument(std::string_view link_json) {
  boost::system::error_code ec;
  auto document = boost::json::parse(link_json, ec);
  const auto* list =
      !ec && document.is_object() ? document.get_object().if_contains("questions") : nullptr;
  if (!list || !list->is_array()) {
    throw ApiError(ErrorCode::kValidationError, "The link document is malformed.",
                   {{"link", "must be a link document"}});
  }
  std::vector<Question> out;
  for (const auto& item : list->get_array()) {
    if (!item.is_object()) continue;
    const auto& o = item.get_object();
    Question q;
    auto text = [&o](std::string_view key) {
      const auto* v = o.if_contains(key);
      return v && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    q.uuid = text("uuid");
    q.field_key = text("field_key");
    q.response_type = text("response_type");
    if (const auto* c = o.if_contains("configuration"); c && c->is_object()) {
      q.configuration = c->get_object();
    }
    out.push_back(std::move(q));
  }
  return summarised(std::move(out));
}

std::vector<Question> summarised(std::vector<Question> questions) {
  std::erase_if(questions,
                [](const Question& q) { return !questions::findQuestionType(q.response_type); });
  return questions;
}

LinkSummary::LinkSummary(std::vector<Question> questions)
    : questions_(std::move(questions)), stats_(questions_.size()) {
  std::set<std::string, std::less<>> shared;  // refs two questions have: whole uuids only
  for (std::size_t i = 0; i < questions_.size(); ++i) {
    kinds_.push_back(questions::summaryKindOf(questions_[i].response_type));
    index_.emplace(questions_[i].uuid, i);
    refs_.emplace_back(questionRef(questions_[i].uuid));
    if (refs_[i] != questions_[i].uuid && !index_.emplace(refs_[i], i).second) {
      shared.insert(refs_[i]);
    }
  }
  for (const auto& ref : shared) index_.erase(ref);
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    if (shared.count(refs_[i])) refs_[i] = questions_[i].uuid;
  }
}

void LinkSummary::addLayout(std::string_view id, std::string_view uuids) {
  std::vector<std::size_t> indexes;
  while (!uuids.empty()) {
    auto it = index_.find(cut(uuids, ','));
    indexes.push_back(it == index_.end() ? kNotAQuestion : it->second);
  }
  layouts_.insert_or_assign(std::string(id), std::move(indexes));
}

namespace {

// A facts line's question field in facts with a layout: a position in decimal (an empty
// field: the one after the previous line's), unless it is a ref (12 hex digits or a uuid).
std::optional<std::size_t> positionIn(std::string_view field, std::size_t previous) {
  if (field.empty()) return previous + 1;
  if (field.size() >= kQuestionRefLength) return std::nullopt;
  std::size_t position = 0;
  const auto end = field.data() + field.size();
  if (std::from_chars(field.data(), end, position).ptr != end) return std::nullopt;
  return position;
}

}  // namespace

void LinkSummary::add(std::string_view facts) {
  ++responses_;
  const std::vector<std::size_t>* layout = nullptr;
  if (!facts.empty() && facts.front() == '@') {
    std::string_view id = cutLine(facts);
    id.remove_prefix(1);
    auto it = layouts_.find(id);
    if (it == layouts_.end()) return;  // written with its layout: never without one
    layout = &it->second;
  }
  // Facts follow the order of the answers, and so mostly the questions' order: without a
  // layout, the question after the last one found is tried first, with a 12-byte compare
  // rather than a hash.
  std::size_t next = 0;
  constexpr std::size_t kNoPosition = static_cast<std::size_t>(-2);
  std::size_t previous = static_cast<std::size_t>(-1);  // a layout's, of the previous line
  while (!facts.empty()) {
    std::string_view line = cutLine(facts);
    const std::string_view ref = cut(line, '\t');
    std::size_t index = next;
    const auto position = layout && previous != kNoPosition ? positionIn(ref, previous)
                          : layout && !ref.empty()          ? positionIn(ref, 0)
                                                            : std::nullopt;
    if (position) {
      previous = *position;
      if (*position >= layout->size() || (*layout)[*position] == kNotAQuestion) continue;
      index = (*layout)[*position];
    } else {
      if (layout) previous = kNoPosition;
      if (index >= refs_.size() || refs_[index] != ref) {
        auto it = index_.find(ref);
        if (it == index_.end()) continue;  // a question the link no longer has (or no line)
        index = it->second;
      }
    }
    next = index + 1;
    const auto kind = cut(line, '\t');
    Stats& s = stats_[index];
    ++s.answered;
    addFact(s, kinds_[index], kind, line);
  }
}

void LinkSummary::merge(const LinkSummary& other) {
  responses_ += other.responses_;
  auto sum = [](auto& into, const auto& from) {
    for (const auto& [key, n] : from) into[key] += n;
  };
  for (std::size_t i = 0; i < stats_.size(); ++i) {
    Stats& s = stats_[i];
    const Stats& o = other.stats_[i];
    s.answered += o.answered;
    sum(s.ratings, o.ratings);
    s.numbers.insert(s.numbers.end(), o.numbers.begin(), o.numbers.end());
    s.highs.insert(s.highs.end(), o.highs.begin(), o.highs.end());
    sum(s.choices, o.choices);
    sum(s.topics, o.topics);
    for (const auto& [option, rank] : o.ranks) {
      auto& into = s.ranks[option];
      into.first += rank.first;
      into.second += rank.second;
    }
    s.yes += o.yes;
    s.no += o.no;
    s.positive += o.positive;
    s.neutral += o.neutral;
    s.negative += o.negative;
    s.actionable += o.actionable;
  }
}

void LinkSummary::addFact(Stats& s, questions::SummaryKind summary, std::string_view kind,
                          std::string_view payload) {
  using questions::SummaryKind;
  // A line written while the question had another type is not summed up as this one.
  if (kind.size() != 1 || kind.front() != static_cast<char>(summary)) return;
  if (summary == SummaryKind::kRating) {
    int64_t value = 0;
    if (std::from_chars(payload.data(), payload.data() + payload.size(), value).ec == std::errc()) {
      ++s.ratings[value];
    }
  } else if (summary == SummaryKind::kNumber) {
    if (auto n = numberIn(payload)) s.numbers.push_back(*n);
  } else if (summary == SummaryKind::kChoice) {
    forEachString(payload,
                  [&s](std::string_view choice) { countIn(s.choices, s.recent_choices, choice); });
  } else if (summary == SummaryKind::kYesNo) {
    ++(payload == "1" ? s.yes : s.no);
  } else if (summary == SummaryKind::kSlider || summary == SummaryKind::kMatrix ||
             summary == SummaryKind::kValues) {
    addValueFact(s, summary, payload);
  } else if (summary == SummaryKind::kRanking) {
    int64_t rank = 0;
    forEachString(payload, [&s, &rank](std::string_view option) {
      if (++rank == 1) countIn(s.choices, s.recent_choices, option);
      auto it = s.ranks.find(option);
      if (it == s.ranks.end()) it = s.ranks.emplace(std::string(option), std::pair{0, 0}).first;
      it->second.first += rank;
      ++it->second.second;
    });
  } else if (summary == SummaryKind::kText) {
    std::string_view rest = payload;
    const auto sentiment = cut(rest, '\t');
    const auto actionable = cut(rest, '\t');
    if (sentiment.empty()) return;  // not evaluated yet
    ++(sentiment == "p" ? s.positive : sentiment == "n" ? s.negative : s.neutral);
    if (actionable == "1") ++s.actionable;
    forEachString(rest,
                  [&s](std::string_view topic) { countIn(s.topics, s.recent_topics, topic); });
  }
}

void LinkSummary::addValueFact(Stats& s, questions::SummaryKind kind, std::string_view payload) {
  using questions::SummaryKind;
  if (kind == SummaryKind::kValues) {
    forEachString(payload,
                  [&s](std::string_view value) { countIn(s.choices, s.recent_choices, value); });
  } else if (kind == SummaryKind::kMatrix) {
    // Row, column, row, column...: each pair a chosen cell, counted as "row\tcolumn".
    std::string cell;
    bool row = true;
    forEachString(payload, [&](std::string_view text) {
      if (row) {
        cell.assign(text).append(1, '\t');
      } else {
        cell.resize(cell.find('\t') + 1);
        cell.append(text);
        countIn(s.choices, s.recent_choices, cell);
      }
      row = !row;
    });
  } else if (payload.empty() || payload.front() != '[') {  // kSlider: a number
    if (auto n = numberIn(payload)) s.numbers.push_back(*n);
  } else {  // kSlider: [low,high]
    const auto comma = payload.find(',');
    const auto low = numberIn(payload.substr(1, comma - 1));
    const auto high = comma == std::string_view::npos
                          ? std::nullopt
                          : numberIn(payload.substr(comma + 1, payload.size() - comma - 2));
    if (low && high) {
      s.numbers.push_back(*low);
      s.highs.push_back(*high);
    }
  }
}

void LinkSummary::writeStats(JsonWriter& json, const Question& q, questions::SummaryKind summary,
                             const Stats& s) {
  using questions::SummaryKind;
  if (summary == SummaryKind::kRating) {
    writeRatingStats(json, q, s.ratings);
  } else if (summary == SummaryKind::kNumber) {
    writeNumberStats(json, s.numbers);
  } else if (summary == SummaryKind::kChoice) {
    json.key("counts").beginObject();
    for (const auto& choice : choicesOf(q)) json.field(choice, countOf(s.choices, choice));
    json.endObject();
  } else if (summary == SummaryKind::kYesNo) {
    json.field("yes", s.yes).field("no", s.no);
  } else if (summary == SummaryKind::kSlider) {
    writeSliderStats(json, q, s.numbers, s.highs);
  } else if (summary == SummaryKind::kRanking) {
    writeRankingStats(json, q, s.ranks, s.choices);
  } else if (summary == SummaryKind::kMatrix) {
    writeMatrixStats(json, q, s.choices);
  } else if (summary == SummaryKind::kConsent) {
    json.field("accepted", s.answered);
  } else if (summary == SummaryKind::kValues) {
    json.key("counts").beginObject();
    for (const auto& [value, n] : mostFrequent(s.choices, kSummaryTopValues)) {
      json.field(value, n);
    }
    json.endObject();
  } else if (summary == SummaryKind::kText) {
    json.key("sentiment")
        .beginObject()
        .field("positive", s.positive)
        .field("neutral", s.neutral)
        .field("negative", s.negative)
        .endObject();
    writeTopTopics(json, s.topics);
    json.field("actionable", s.actionable);
  }
}

std::string LinkSummary::json(const std::string& link_uuid, int64_t started) const {
  std::string out;
  JsonWriter json(out);
  json.beginObject()
      .field("link_uuid", link_uuid)
      .field("response_count", responses_)
      .field("started_count", started)
      .key("completion_rate")
      .number(started > 0 ? double(responses_) / double(started) : 0.0)
      .key("questions")
      .beginArray();
  for (std::size_t i = 0; i < questions_.size(); ++i) {
    const Question& q = questions_[i];
    const Stats& s = stats_[i];
    json.beginObject()
        .field("question_uuid", q.uuid)
        .field("field_key", q.field_key)
        .field("response_type", q.response_type)
        .field("answered", s.answered)
        .key("stats")
        .beginObject();
    writeStats(json, q, kinds_[i], s);
    json.endObject().endObject();
  }
  json.endArray().endObject();
  return out;
}

}  // namespace feedback::responses
