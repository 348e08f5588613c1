#pragma once
// The links rules as a request meets them: a JSON body mapped by the gateway
// (routes/link_requests.h), then judged by LinksService on an in-memory store. Any refusal must
// be one of the contract's client errors (4xx); any link saved must hold what the rules
// promise, so that everything downstream (the intake, the responses service) can rely on it.

#include <boost/json/parse.hpp>
#include <optional>
#include <set>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/names.h"
#include "common/questions/conditions.h"
#include "common/questions/configuration_rules.h"
#include "common/questions/question_types.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/json/link_requests.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/unit/services/links/links_fakes.h"

namespace feedback::fuzz {

class LinksUnderTest {
 public:
  static constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";

  // The link POST /v1/links/ with `body` creates, or nullopt when it is refused.
  std::optional<links::v1::Link> create(const boost::json::object& body) {
    return judged([&] {
      auto link = service_.createLink(store_, gateway::createLinkRequest(body, caller())).link();
      checkSaved(link);
      return link;
    });
  }

  // PATCH /v1/links/{uuid}/ with `body`.
  std::optional<links::v1::Link> update(const std::string& uuid, const boost::json::object& body) {
    return judged([&] {
      auto link =
          service_.updateLink(store_, gateway::updateLinkRequest(body, caller(), uuid)).link();
      checkSaved(link);
      return link;
    });
  }

 private:
  static common::v1::Caller caller() {
    common::v1::Caller c;
    c.mutable_workspace()->set_uuid(kWorkspace);
    c.mutable_workspace()->set_host("acme.feedback.example");
    c.mutable_workspace()->set_link_quota(-1);
    return c;
  }

  template <class F>
  static std::optional<links::v1::Link> judged(F f) {
    try {
      return f();
    } catch (const ApiError& e) {
      // A refusal is the client's to fix: never a server error.
      FUZZ_CHECK(e.spec().http_status >= 400 && e.spec().http_status < 500);
      return std::nullopt;
    }
  }

  static boost::json::object parsedObject(const std::string& text) {
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec);
    FUZZ_CHECK(!ec && value.is_object());
    return value.as_object();
  }

  // What a saved link promises its readers.
  static void checkSaved(const links::v1::Link& link) {
    FUZZ_CHECK(isValidSlug(link.slug()));
    std::set<std::string> keys;
    for (const auto& q : link.questions()) {
      FUZZ_CHECK(isValidFieldKey(q.field_key()));
      FUZZ_CHECK(keys.insert(q.field_key()).second);
    }
    std::vector<questions::Question> saved(static_cast<std::size_t>(link.questions_size()));
    questions::QuestionsByKey earlier;
    int order = -1;
    for (const auto& q : link.questions()) {
      FUZZ_CHECK(q.order() >= order);
      order = q.order();
      const auto* type = questions::findQuestionType(q.response_type());
      FUZZ_CHECK(type != nullptr);
      // Saved parts read back and pass the rules again.
      auto& question = saved[earlier.size()];
      question.field_key = q.field_key();
      question.response_type = q.response_type();
      question.configuration = parsedObject(q.configuration_json());
      questions::validateConfiguration(*type, question.configuration, "c", keys, q.field_key());
      questions::validateCondition(parsedObject(q.condition_json()), "c", earlier);
      questions::validateEvaluatorConfig(parsedObject(q.evaluator_config_json()), "c");
      earlier.emplace(q.field_key(), &question);
    }
  }

  links::fakes::FakeStore store_;
  links::fakes::NoVersions versions_;
  links::fakes::RecordingWebhooks webhooks_;
  // Private webhook targets allowed: judging an on_finished URL looks no name up.
  links::LinksService service_{
      links::LinksSettings{.public_scheme = "https", .webhook_allow_private = true},
      *SecretBox::fromBase64Key(crypto::base64Encode(std::string(32, 'k'))), versions_, webhooks_};
};

}  // namespace feedback::fuzz
