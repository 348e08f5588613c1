#pragma once
// A link as the intake's rules see it, and the answers built from it. An answer keeps the
// question as it was asked (uuid, field_key, type, prompt), so it outlives edits and the
// deletion of its link.

#include <boost/json/value.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/questions/form_rules.h"
#include "feedback/responses/v1/responses.pb.h"
#include "services/responses/summary_facts.h"

namespace feedback::responses {

// The link's questions as the rules take them (configuration, condition and evaluator_config
// parsed); VALIDATION_ERROR when one of them is not a JSON object.
std::vector<questions::Question> questionsOf(const feedback::links::v1::Link& link);

class IntakeForm {
 public:
  // VALIDATION_ERROR when the caller's link is malformed (an internal caller's mistake).
  explicit IntakeForm(const feedback::responses::v1::IntakeLink& link);

  const std::string& workspaceUuid() const { return workspace_uuid_; }
  const feedback::links::v1::Link& link() const { return link_; }
  const questions::FormRules& rules() const { return rules_; }
  // The order of its questions, which its responses' summary facts name them by.
  const std::shared_ptr<const FactsLayout>& factsLayout() const { return facts_layout_; }
  // LINK_PAUSED unless the link takes responses.
  void requireActive() const;

 private:
  std::string workspace_uuid_;
  feedback::links::v1::Link link_;
  questions::FormRules rules_;
  std::shared_ptr<const FactsLayout> facts_layout_;
};

// Forms compiled once per link version: the links service raises a link's version with every
// change, so the form of a (workspace, link, version) never changes, and most requests skip
// parsing and compiling the questions' rules. Thread-safe; holds at most `max_entries`.
class IntakeForms {
 public:
  explicit IntakeForms(std::size_t max_entries = 1024) : max_entries_(max_entries) {}
  // The form of `link`; VALIDATION_ERROR as IntakeForm's.
  std::shared_ptr<const IntakeForm> of(const feedback::responses::v1::IntakeLink& link);

 private:
  const std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const IntakeForm>> forms_;
};

// The answer to `question` holding `value` (null for none); `uuid` empty for a new answer;
// `question_text` the prompt as the respondent saw it (the prompt itself when empty).
feedback::responses::v1::Answer makeAnswer(const questions::Question& question,
                                           const boost::json::value& value, std::string uuid,
                                           std::string question_text = {});
// The value of a stored answer (null when it has none).
boost::json::value valueOf(const feedback::responses::v1::Answer& answer);

}  // namespace feedback::responses
