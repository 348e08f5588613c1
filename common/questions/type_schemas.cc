#include "common/questions/type_schemas.h"

#include <boost/json/parse.hpp>

#include "common/questions/answer_rules.h"
#include "common/questions/conditions.h"

namespace feedback::questions {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

std::string camel(std::string_view name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

value schemaRef(const std::string& component) {
  return object{{"$ref", "#/components/schemas/" + component}};
}

object stringOf(std::size_t min_length, std::size_t max_length) {
  object out{{"type", "string"}};
  if (min_length > 0) out["minLength"] = min_length;
  if (max_length > 0) out["maxLength"] = max_length;
  return out;
}

object stringList(double min, double max, bool unique) {
  object out{{"type", "array"}, {"items", object{{"type", "string"}, {"minLength", 1}}}};
  if (min > 0) out["minItems"] = static_cast<int64_t>(min);
  if (max > 0) out["maxItems"] = static_cast<int64_t>(max);
  if (unique) out["uniqueItems"] = true;
  return out;
}

object closedObject(object properties, array required = {}) {
  object out{
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) out["required"] = std::move(required);
  return out;
}

object keySchema(const QuestionType& type, const ConfigKey& key) {
  object out;
  switch (key.value) {
    case ConfigValue::kInteger:
      out = {{"type", "integer"}, {"minimum", key.min}, {"maximum", key.max}};
      break;
    case ConfigValue::kNumber:
      out = {{"type", "number"}};
      break;
    case ConfigValue::kPositiveNumber:
      out = {{"type", "number"}, {"exclusiveMinimum", 0}};
      if (key.max > 0) out["maximum"] = key.max;
      break;
    case ConfigValue::kBoolean:
      out = {{"type", "boolean"}};
      break;
    case ConfigValue::kText:
      out = stringOf(static_cast<std::size_t>(key.min), static_cast<std::size_t>(key.max));
      break;
    case ConfigValue::kTextList:
      out = {{"type", "array"},
             {"items", {{"type", "string"}}},
             {"minItems", key.min},
             {"maxItems", key.max}};
      break;
    case ConfigValue::kUrl:
      out = {{"type", "string"}, {"format", "uri"}, {"maxLength", 2048}};
      break;
    case ConfigValue::kHttpsUrl:
      out = {{"type", "string"}, {"format", "uri"}, {"pattern", "^https://"}, {"maxLength", 2048}};
      break;
    case ConfigValue::kOptions:
      out = stringList(std::max(key.min, 1.0), key.max, true);
      break;
    case ConfigValue::kScaleType: {
      array names;
      for (auto name : kRatingScaleTypes) names.emplace_back(name);
      out = {{"type", "string"}, {"enum", std::move(names)}};
      break;
    }
    case ConfigValue::kCards: {
      array media;
      for (auto name : kCardMediaTypes) media.emplace_back(name);
      out = {{"type", "array"},
             {"minItems", 1},
             {"maxItems", key.max},
             {"items", closedObject({{"id", stringOf(1, 0)},
                                     {"label", stringOf(0, 200)},
                                     {"media_url", {{"type", "string"}, {"format", "uri"}}},
                                     {"media_type", {{"type", "string"}, {"enum", media}}}},
                                    {"id", "label", "media_url", "media_type"})}};
      break;
    }
    case ConfigValue::kMimeTypes:
      out = {{"type", "array"},
             {"maxItems", key.max},
             {"items", {{"type", "string"}, {"pattern", "^[^/ ]+/[^/ ]+$"}}}};
      break;
    case ConfigValue::kFormula:
      out = {{"type", "string"},
             {"minLength", 1},
             {"description", "arithmetic (+ - * / and brackets) over other questions' field_keys"}};
      break;
    case ConfigValue::kCountry:
      out = {{"type", "string"},
             {"pattern", "^[A-Za-z]{2}$"},
             {"description", "an ISO 3166-1 alpha-2 country code"}};
      break;
    case ConfigValue::kTime:
      out = {{"type", "string"}, {"pattern", "^([01][0-9]|2[0-3]):[0-5][0-9]$"}};
      break;
    case ConfigValue::kDate:
      out = {{"type", "string"}, {"format", "date"}};
      break;
    case ConfigValue::kScaleLabels:
      out = closedObject(
          {{"left", stringOf(0, 200)}, {"center", stringOf(0, 200)}, {"right", stringOf(0, 200)}});
      break;
    case ConfigValue::kIdLabels:
      out = {{"type", "array"},
             {"minItems", key.min},
             {"maxItems", key.max},
             {"items", closedObject({{"id", {{"type", "string"}, {"pattern", "^[a-z0-9_]{1,64}$"}}},
                                     {"label", stringOf(1, 200)}},
                                    {"id", "label"})}};
      break;
    case ConfigValue::kParts: {
      object parts;
      for (const auto& part : type.parts) {
        parts[part.name] =
            closedObject({{"show", {{"type", "boolean"}, {"default", true}}},
                          {"required", {{"type", "boolean"}, {"default", part.required}}}});
      }
      out = closedObject(std::move(parts));
      break;
    }
  }
  if (!key.default_json.empty()) out["default"] = boost::json::parse(key.default_json);
  return out;
}

object configurationSchema(const QuestionType& type) {
  object properties;
  array required;
  for (const auto& key : type.configuration) {
    properties[key.name] = keySchema(type, key);
    if (key.required) required.emplace_back(key.name);
  }
  return closedObject(std::move(properties), std::move(required));
}

// The JSON Schema of a text answer of this format.
object textSchema(ValueFormat format) {
  object out{{"type", "string"}};
  switch (format) {
    case ValueFormat::kEmail:
      out["format"] = "email";
      break;
    case ValueFormat::kUrl:
      out["format"] = "uri";
      break;
    case ValueFormat::kDate:
      out["format"] = "date";
      break;
    case ValueFormat::kInstant:
      out["format"] = "date-time";
      break;
    case ValueFormat::kTime:
      out["pattern"] = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
      break;
    case ValueFormat::kPhone:
      out["description"] = "E.164, as stored: +14155550123";
      break;
    case ValueFormat::kPlain:
      break;
  }
  return out;
}

object valueSchema(const QuestionType& type) {
  const object strings{{"type", "array"}, {"items", {{"type", "string"}}}};
  switch (type.shape) {
    case AnswerShape::kText:
      return textSchema(type.format);
    case AnswerShape::kNumber:
      return type.scale ? object{{"type", "integer"}} : object{{"type", "number"}};
    case AnswerShape::kBoolean:
      return type.summary == SummaryKind::kConsent ? object{{"const", true}}
                                                   : object{{"type", "boolean"}};
    case AnswerShape::kChoice:
      return {{"oneOf", array{object{{"type", "string"}}, strings}}};
    case AnswerShape::kList:
      return strings;
    case AnswerShape::kSlider:
      return {{"oneOf", array{object{{"type", "number"}}, object{{"type", "array"},
                                                                 {"items", {{"type", "number"}}},
                                                                 {"minItems", 2},
                                                                 {"maxItems", 2}}}}};
    case AnswerShape::kMatrix:
      return {{"type", "object"},
              {"description", "row id -> column id (a list of column ids when multiple)"},
              {"additionalProperties", {{"oneOf", array{object{{"type", "string"}}, strings}}}}};
    case AnswerShape::kParts: {
      object parts;
      for (const auto& part : type.parts) parts[part.name] = {{"type", array{"string", "null"}}};
      return closedObject(std::move(parts));
    }
    case AnswerShape::kDateRange: {
      const object date{{"type", "string"}, {"format", "date"}};
      return closedObject({{"start", date}, {"end", date}}, {"start", "end"});
    }
    case AnswerShape::kFile:
      return schemaRef("StoredFile").as_object();
    case AnswerShape::kNone:
    case AnswerShape::kUnset:
      return {{"type", "null"}};
  }
  return {};
}

value nullable(value schema) {
  return object{{"oneOf", array{std::move(schema), object{{"type", "null"}}}}};
}

// `base` narrowed to one type: the property `discriminant` set to it, `extra` added;
// `required` the properties of those two a body always has.
object variant(const std::string& base, std::string_view discriminant, std::string_view name,
               object extra, array required) {
  extra[discriminant] = {{"type", "string"}, {"enum", array{value(name)}}};
  object narrowed{{"type", "object"}, {"properties", std::move(extra)}};
  if (!required.empty()) narrowed["required"] = std::move(required);
  return {{"allOf", array{schemaRef(base), std::move(narrowed)}}};
}

object unionOf(const array& members, std::string_view discriminant, const object& mapping) {
  object out{{"oneOf", members}};
  if (!mapping.empty()) {
    out["discriminator"] = {{"propertyName", discriminant}, {"mapping", mapping}};
  }
  return out;
}

}  // namespace

boost::json::object questionTypeSchemas() {
  object out;
  array names, inputs, questions, answers;
  object question_mapping, answer_mapping;
  for (const auto& type : questionTypes()) {
    const std::string name(type.name), prefix = camel(type.name);
    names.emplace_back(type.name);
    out[prefix + "Configuration"] = configurationSchema(type);
    out[prefix + "Value"] = valueSchema(type);
    const value configuration = schemaRef(prefix + "Configuration");
    // A question without a type is a voice question (docs/api.md "Question types").
    out[prefix + "QuestionInput"] =
        variant("QuestionInputBase", "type", name, {{"configuration", configuration}},
                type.name == kDefaultQuestionType ? array{} : array{"type"});
    out[prefix + "Question"] =
        variant("QuestionBase", "response_type", name, {{"configuration", configuration}},
                {"response_type", "configuration"});
    // Null too for an answer given by a recording; a help_block's is only ever null.
    const value answer_value = type.shape == AnswerShape::kNone
                                   ? schemaRef(prefix + "Value")
                                   : nullable(schemaRef(prefix + "Value"));
    out[prefix + "Answer"] = variant("AnswerBase", "response_type", name, {{"value", answer_value}},
                                     {"response_type", "value"});
    inputs.push_back(schemaRef(prefix + "QuestionInput"));
    questions.push_back(schemaRef(prefix + "Question"));
    answers.push_back(schemaRef(prefix + "Answer"));
    question_mapping[name] = "#/components/schemas/" + prefix + "Question";
    answer_mapping[name] = "#/components/schemas/" + prefix + "Answer";
  }
  out["QuestionType"] = {{"type", "string"}, {"enum", std::move(names)}};
  out["QuestionInput"] = unionOf(inputs, "type", {});
  out["Question"] = unionOf(questions, "response_type", question_mapping);
  out["Answer"] = unionOf(answers, "response_type", answer_mapping);

  array operators;
  for (const auto& op : kOperators) operators.emplace_back(op.name);
  const object leaf = closedObject(
      {{"show_if", {{"type", "string"}, {"enum", array{"field_value"}}}},
       {"field",
        {{"type", "string"},
         {"pattern", "^[a-z0-9]+(_[a-z0-9]+)*(\\.[A-Za-z0-9_]+)?$"},
         {"description", "an earlier question's field_key, or key.part of an object answer"}}},
       {"operator", {{"type", "string"}, {"enum", std::move(operators)}}},
       {"value",
        {{"description",
          "a number, string or boolean; a list for includes_any, "
          "includes_all and excludes_all; none for is_answered and "
          "is_not_answered"}}}},
      {"field", "operator"});
  const object members{{"type", "array"},
                       {"minItems", 1},
                       {"maxItems", static_cast<int64_t>(kMaxGroupMembers)},
                       {"items", schemaRef("Condition")}};
  out["ConditionLeaf"] = leaf;
  out["Condition"] = {
      {"description",
       "{} (always shown), a leaf, or a group {all: [...]} / {any: [...]} (at "
       "most 3 levels of groups and 50 leaves)"},
      {"oneOf", array{object{{"type", "object"}, {"maxProperties", 0}}, schemaRef("ConditionLeaf"),
                      closedObject({{"all", members}}, {"all"}),
                      closedObject({{"any", members}}, {"any"})}}};
  return out;
}

}  // namespace feedback::questions
