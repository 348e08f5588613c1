#pragma once
// What a link's summary (GET /v1/links/{uuid}/summary/) needs of one completed response, kept
// in responses.response_facts beside it, so that a summary reads a few bytes per response
// instead of parsing every answer. One line per answered question:
//   <question ref> TAB <kind> TAB <payload>
// The question ref is the last 12 hex digits of the question's uuid (48 random bits of a
// version 4 uuid; facts written before 2026-11 hold the whole uuid, and are read alike): a
// third of the bytes a summary reads.
// Facts written with their link's layout (FactsLayout, below) begin with a line
//   @<layout id>
// and their lines name a question by its position in that layout, in decimal, or not at all
// (an empty field) when it is the one after the previous line's, which it nearly always is:
// half the bytes of a 32-question response's facts. A line of a question the layout lacks
// keeps its ref, and the line after it names its position.
// kind and payload by the answer's type:
// (the letter is the type's SummaryKind in common/questions/question_types.h):
//   r  rating, nps, opinion_scale, csat, ces   the value (an integer)
//   n  number                         the value
//   c  multiple_choice, image_choice, dropdown   the chosen options or card ids, a JSON array
//   y  yes_no                         1 or 0
//   t  text, long_text, voice, voice_text_fallback   sentiment (p, u, n; empty until
//                                     evaluated) TAB actionable (1 or 0) TAB key topics, a JSON
//                                     array
//   s  slider                         the value, a number or [low, high]
//   k  ranking                        the options best first, a JSON array
//   m  matrix                         row and column of every chosen cell, a flat JSON array
//   v  hidden_field                   the value, a JSON array of one string
//   x  consent                        nothing: accepted
//   a  any other type                 nothing: answered, no statistic

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/text_map.h"
#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

inline constexpr std::size_t kQuestionRefLength = 12;

// How a facts line names a question: the last 12 hex digits of its uuid.
std::string_view questionRef(std::string_view question_uuid);

// The order of a link's questions when a response's facts were written. A summary reads the
// layouts of its link (responses.facts_layouts, written with the first facts that use each)
// before the facts, and maps positions to the link's questions as they are now.
class FactsLayout {
 public:
  // The link's question uuids, in its order.
  explicit FactsLayout(const std::vector<std::string>& question_uuids);
  // 16 hex digits of a hash of the uuids in order.
  const std::string& id() const { return id_; }
  // The uuids, comma-separated: what facts_layouts keeps.
  const std::string& uuids() const { return uuids_; }
  std::optional<std::size_t> position(std::string_view question_uuid) const;
  // Whether its row in facts_layouts is known committed. Set by the store once it is, so that
  // a form's later batches (the form and its layout are kept per link version) do not write
  // it again: a statement per batch, 3% of the service's CPU under "W4, 32 types". Rows of
  // facts_layouts are never deleted.
  bool written() const { return written_.load(std::memory_order_relaxed); }
  void markWritten() const { written_.store(true, std::memory_order_relaxed); }

 private:
  std::string id_;
  std::string uuids_;
  TextMap<std::size_t> positions_;
  mutable std::atomic<bool> written_{false};
};

// The facts of a completed response's answers; with `layout`, in its form (above).
std::string summaryFacts(const std::vector<feedback::responses::v1::Answer>& answers,
                         const FactsLayout* layout = nullptr);

}  // namespace feedback::responses
