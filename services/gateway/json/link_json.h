#pragma once
// The JSON of links (docs/api.md "Resources") and of the public form
// (docs/api.md "Public intake").

#include <string>

#include "common/core/json_writer.h"
#include "feedback/links/v1/links.pb.h"
#include "services/gateway/cache/link_cache.h"

namespace feedback::gateway {

// The link with link.response_count(), or with a one-character placeholder 0 whose position
// goes to `count_offset` when that is given.
void writeLink(JsonWriter& json, const feedback::links::v1::Link& link,
               std::size_t* count_offset = nullptr);
std::string renderLink(const feedback::links::v1::Link& link);
// The link with a placeholder count, for the link cache.
LinkDocument renderLinkDocument(const feedback::links::v1::Link& link);
// GET /i/{slug}/form/: {name, slug, status, settings, questions}, questions without
// evaluator_config (the respondent does not see how answers are judged).
std::string renderForm(const feedback::links::v1::Link& link);

}  // namespace feedback::gateway
