#pragma once
// A shared report's page (docs/api.md "Shared reports"): the link's summary as charts, each
// with a table a screen reader reads and the keyboard reaches, rendered here as HTML with SVG
// so that the numbers and charts are in the first paint, with no script (the page's policy
// allows none) and no inline style (SVG's geometry attributes are not styles). The charts are
// bars and a heat map: what the summary holds needs no more, so no charting library is shipped.

#include <google/protobuf/repeated_ptr_field.h>

#include <string>
#include <string_view>

#include "feedback/links/v1/links.pb.h"
#include "feedback/responses/v1/responses.pb.h"

namespace feedback::gateway {

// `summary`: GetLinkSummary's, with its completed responses per day and, for a report with
// include_text, its quotes (shown under their questions). Never shows a respondent's email,
// file or recording: the summary holds none, and the quotes' addresses are masked.
std::string renderReportPage(const feedback::links::v1::Link& link,
                             const feedback::responses::v1::GetLinkSummaryResponse& summary);

// Its Content-Security-Policy: its own stylesheet, nothing else.
inline constexpr std::string_view kReportPagePolicy =
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; "
    "frame-ancestors 'none'; base-uri 'none'";

}  // namespace feedback::gateway
