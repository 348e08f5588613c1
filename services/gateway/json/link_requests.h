#pragma once
// The JSON bodies of POST /v1/links/ and PATCH /v1/links/{uuid}/ as the links service's
// requests. Only the shape is judged here (unknown keys and wrong types: VALIDATION_ERROR,
// INVALID_CONFIGURATION, INVALID_CONDITION); the rules of links and questions are the links
// service's.

#include <boost/json/object.hpp>
#include <string>

#include "feedback/common/v1/common.pb.h"
#include "feedback/links/v1/links.pb.h"

namespace feedback::gateway {

feedback::links::v1::CreateLinkRequest createLinkRequest(
    const boost::json::object& body, const feedback::common::v1::Caller& caller);
// A key given as null resets that field (settings to their defaults; name, slug and status to
// empty, which the links service refuses with the contract's code).
feedback::links::v1::UpdateLinkRequest updateLinkRequest(const boost::json::object& body,
                                                         const feedback::common::v1::Caller& caller,
                                                         const std::string& link_uuid);

}  // namespace feedback::gateway
