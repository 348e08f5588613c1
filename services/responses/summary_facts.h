#pragma once
// What a link's summary (GET /v1/links/{uuid}/summary/) needs of one completed response, kept
// in responses.response_facts beside it, so that a summary reads a few bytes per response
// instead of parsing every answer. One line per answered question:
//   <question_uuid> TAB <kind> TAB <payload>
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
//   m  matrix                         the answer, a JSON object
//   v  hidden_field                   the value, a JSON string
//   x  consent                        nothing: accepted
//   a  any other type                 nothing: answered, no statistic

#include <string>
#include <string_view>
#include <vector>

#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

std::string summaryFacts(const std::vector<feedback::responses::v1::Answer>& answers);

}  // namespace feedback::responses
