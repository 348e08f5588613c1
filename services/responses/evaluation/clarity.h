#pragma once
// How clear an answer is, for dynamic probing (docs/api.md "AI insights and summaries"), and
// the follow-up prompt that asks for what is missing.
//
// clarity, from 0 to 1: with W the answer's words and C those that are neither stop words nor
// vague words,
//   length      = min(1, |C| / 12)
//   specificity = min(1, |C| / |W| + 0.2 if the answer holds a digit)
//   coverage    = the share of custom fields some sentence covers (custom_fields.h)
//   clarity     = 0.45 length + 0.25 specificity + 0.30 coverage   (with custom fields)
//               = 0.65 length + 0.35 specificity                   (without)
// less 0.15 for each vague expression ("ok", "fine", "not sure", "dunno", "idk", "whatever",
// "nothing", "stuff", "meh", "good", "bad", "nice", ...; at most three count), within [0, 1].
// "ok" scores 0; twelve specific words that cover every custom field score about 0.9.

#include <string>
#include <string_view>
#include <vector>

#include "services/responses/evaluation/custom_fields.h"

namespace feedback::responses::evaluation {

double clarity(std::string_view text, const CustomFieldValues& custom_fields);

// The follow-up to ask after `asked` follow-ups: the first custom field no sentence covers
// yet, else a request for detail that depends on the answer's sentiment and on how many were
// asked before.
std::string followUpPrompt(const CustomFieldValues& custom_fields, double sentiment_compound,
                           int asked);

}  // namespace feedback::responses::evaluation
