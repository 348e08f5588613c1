#pragma once
// What a link's summary (GET /v1/links/{uuid}/summary/) needs of one completed response, kept
// in responses.response_facts beside it, so that a summary reads a few bytes per response
// instead of parsing every answer. One line per answered question:
//   <question ref> TAB <kind> TAB <payload>
// The question ref is the last 12 hex digits of the question's uuid (48 random bits of a
// version 4 uuid; facts written before 2026-11 hold the whole uuid, and are read alike): a
// third of the bytes a summary reads.
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

#include <string>
#include <string_view>
#include <vector>

#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

inline constexpr std::size_t kQuestionRefLength = 12;

// How a facts line names a question: the last 12 hex digits of its uuid.
std::string_view questionRef(std::string_view question_uuid);

std::string summaryFacts(const std::vector<feedback::responses::v1::Answer>& answers);

}  // namespace feedback::responses
