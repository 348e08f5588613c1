#include "services/responses/intake_form.h"

#include <catch2/catch.hpp>

#include "common/core/errors.h"

namespace v1 = feedback::responses::v1;
using feedback::responses::IntakeForms;

namespace {

v1::IntakeLink link(const char* workspace, const char* uuid, int64_t version,
                    const char* prompt = "How was it?") {
  v1::IntakeLink out;
  out.set_workspace_uuid(workspace);
  auto* l = out.mutable_link();
  l->set_uuid(uuid);
  l->set_version(version);
  l->set_status("active");
  auto* q = l->add_questions();
  q->set_uuid("00000000-0000-4000-8000-000000000001");
  q->set_field_key("how");
  q->set_prompt(prompt);
  q->set_response_type("text");
  return out;
}

constexpr const char* kWs = "11111111-1111-4111-8111-111111111111";
constexpr const char* kOtherWs = "22222222-2222-4222-8222-222222222222";
constexpr const char* kLink = "33333333-3333-4333-8333-333333333333";

}  // namespace

TEST_CASE("intake forms: compiled once per link version and workspace", "[responses]") {
  IntakeForms forms;
  auto first = forms.of(link(kWs, kLink, 1));
  CHECK(forms.of(link(kWs, kLink, 1)) == first);
  auto changed = forms.of(link(kWs, kLink, 2, "What went wrong?"));
  CHECK(changed != first);
  CHECK(changed->rules().find("how")->prompt == "What went wrong?");
  CHECK(first->rules().find("how")->prompt == "How was it?");  // still whole for its holders
  CHECK(forms.of(link(kOtherWs, kLink, 1)) != first);
  CHECK(forms.of(link(kOtherWs, kLink, 1))->workspaceUuid() == kOtherWs);
  // Without a version, never kept.
  auto unversioned = forms.of(link(kWs, kLink, 0));
  CHECK(forms.of(link(kWs, kLink, 0, "Changed?")) != unversioned);
  CHECK(forms.of(link(kWs, kLink, 0, "Changed?"))->rules().find("how")->prompt == "Changed?");
}

TEST_CASE("intake forms: malformed links are refused, never kept; the table is bounded",
          "[responses]") {
  IntakeForms forms(2);
  auto bad = link("not-a-uuid", kLink, 1);
  CHECK_THROWS_AS(forms.of(bad), feedback::ApiError);
  CHECK_THROWS_AS(forms.of(bad), feedback::ApiError);
  auto one = forms.of(link(kWs, kLink, 1));
  forms.of(link(kWs, kLink, 2));
  forms.of(link(kWs, kLink, 3));  // past the bound: starts over
  CHECK(forms.of(link(kWs, kLink, 1)) != one);
  CHECK(forms.of(link(kWs, kLink, 1))->link().version() == 1);
}
