#pragma once
// The question types as the OpenAPI document describes them (services/gateway/openapi/
// openapi.json), made from the question-type table so that the document cannot drift from it:
// for each type a schema of its configuration, of its answers' value, and the variants of
// QuestionInput, Question and Answer that name it, which those three are the union of
// (discriminated by `type` or `response_type`); and QuestionType and Condition, whose
// operators are conditions.h's. `gateway --question-types` prints them; scripts/docs writes
// them into the document and checks it.

#include <boost/json/object.hpp>

namespace feedback::questions {

// Component name -> JSON Schema, for components.schemas.
boost::json::object questionTypeSchemas();

}  // namespace feedback::questions
