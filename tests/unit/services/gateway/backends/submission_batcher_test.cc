#include "services/gateway/backends/submission_batcher.h"

#include <catch2/catch.hpp>
#include <thread>

#include "common/grpc/grpc_kit.h"

using namespace feedback::gateway;
namespace rv1 = feedback::responses::v1;

namespace {

using Clock = std::chrono::system_clock;

// Calls the test answers when it likes.
struct FakeCalls {
  struct Made {
    rv1::CreateCompletedResponsesRequest request;
    SubmissionBatcher::Deadline deadline;
    SubmissionBatcher::Answered answered;
  };
  std::vector<Made> made;
  SubmissionBatcher::Call call() {
    return [this](rv1::CreateCompletedResponsesRequest request,
                  SubmissionBatcher::Deadline deadline, SubmissionBatcher::Answered answered) {
      made.push_back({std::move(request), deadline, std::move(answered)});
    };
  }
  // Answers call `i` with one stored response per submission (uuid = its email).
  void store(std::size_t i) {
    rv1::CreateCompletedResponsesResponse response;
    for (const auto& s : made.at(i).request.submissions()) {
      response.add_results()->set_record_json(s.respondent_email());
    }
    made.at(i).answered(grpc::Status::OK, response);
  }
};

rv1::CompletedSubmission submission(const std::string& name) {
  rv1::CompletedSubmission s;
  s.set_respondent_email(name);
  return s;
}

// Two links' forms, as the gateway keeps them.
std::shared_ptr<const IntakeForm> form(const std::string& uuid) {
  auto f = std::make_shared<IntakeForm>();
  f->workspace_uuid = "ws-1";
  f->link.set_uuid(uuid);
  f->link.set_version(3);
  return f;
}
const auto kFormA = form("link-a");
const auto kFormB = form("link-b");

// What each submission was answered: the stored uuid, or the error's code.
struct Outcomes {
  std::map<std::string, std::string> by_name;
  SubmissionBatcher::Done of(const std::string& name) {
    return [this, name](const rv1::CompletedResponseResult& result) {
      REQUIRE_FALSE(by_name.count(name));  // answered once
      if (result.has_record_json()) {
        by_name[name] = result.record_json();
        return;
      }
      auto error = feedback::grpckit::fromStatus(feedback::grpckit::fromRpcStatus(result.error()));
      by_name[name] = std::string(error.spec().name);
    };
  }
};

std::vector<std::string> names(const rv1::CreateCompletedResponsesRequest& request) {
  std::vector<std::string> out;
  for (const auto& s : request.submissions()) out.push_back(s.respondent_email());
  return out;
}

// A batcher with fake calls, and what each submission was answered.
struct Fixture {
  FakeCalls calls;
  Outcomes outcomes;
  SubmissionBatcher batcher;
  const SubmissionBatcher::Deadline deadline = Clock::now() + std::chrono::seconds(5);
  explicit Fixture(SubmissionLimits limits) : batcher(calls.call(), limits) {}
  // Submits `name` (its email, and its outcome's key) to `form`'s link.
  void submit(const std::shared_ptr<const IntakeForm>& form, const std::string& name,
              std::optional<SubmissionBatcher::Deadline> at = std::nullopt) {
    batcher.submit(form, submission(name), at.value_or(deadline), outcomes.of(name));
  }
};

}  // namespace

TEST_CASE("submissions: a lone one goes at once; others wait and go together", "[gateway]") {
  Fixture f({.max_calls = 1});
  auto& [calls, outcomes, batcher, deadline] = f;
  const auto t0 = Clock::now() + std::chrono::seconds(5);
  f.submit(kFormA, "a", t0);
  REQUIRE(calls.made.size() == 1);
  CHECK(names(calls.made[0].request) == std::vector<std::string>{"a"});
  CHECK(calls.made[0].deadline == t0);

  f.submit(kFormA, "b", t0 + std::chrono::seconds(1));
  f.submit(kFormA, "c", t0 - std::chrono::seconds(1));
  CHECK(calls.made.size() == 1);  // the one call allowed is under way
  calls.store(0);
  CHECK(outcomes.by_name == std::map<std::string, std::string>{{"a", "a"}});
  REQUIRE(calls.made.size() == 2);
  CHECK(names(calls.made[1].request) == std::vector<std::string>{"b", "c"});
  CHECK(calls.made[1].deadline == t0 - std::chrono::seconds(1));  // the earliest
  calls.store(1);
  CHECK(outcomes.by_name.size() == 3);
  CHECK(calls.made.size() == 2);
}

TEST_CASE("submissions: each is answered with its own result", "[gateway]") {
  Fixture f({.max_calls = 1});
  auto& [calls, outcomes, batcher, deadline] = f;
  f.submit(kFormA, "first");
  f.submit(kFormA, "ok");
  f.submit(kFormA, "bad");
  calls.store(0);
  rv1::CreateCompletedResponsesResponse answer;
  answer.add_results()->set_record_json("stored-ok");
  *answer.add_results()->mutable_error() = feedback::grpckit::toRpcStatus(
      feedback::grpckit::toStatus(feedback::ApiError(feedback::ErrorCode::kLinkPaused)));
  calls.made.at(1).answered(grpc::Status::OK, answer);
  CHECK(outcomes.by_name == std::map<std::string, std::string>{
                                {"first", "first"}, {"ok", "stored-ok"}, {"bad", "LINK_PAUSED"}});
}

TEST_CASE("submissions: a failed call fails each of them; a short answer too", "[gateway]") {
  Fixture f({.max_calls = 2});
  auto& [calls, outcomes, batcher, deadline] = f;
  f.submit(kFormA, "a");
  f.submit(kFormA, "b");
  REQUIRE(calls.made.size() == 2);  // two calls may be under way
  f.submit(kFormA, "c");
  f.submit(kFormA, "d");
  calls.made[0].answered(grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection refused"), {});
  CHECK(outcomes.by_name.at("a") == "SERVICE_UNAVAILABLE");
  REQUIRE(calls.made.size() == 3);
  CHECK(names(calls.made[2].request) == std::vector<std::string>{"c", "d"});
  calls.made[2].answered(grpc::Status::OK, {});  // no results for two submissions
  CHECK(outcomes.by_name.at("c") == "INTERNAL_ERROR");
  CHECK(outcomes.by_name.at("d") == "INTERNAL_ERROR");
  calls.store(1);
  CHECK(outcomes.by_name.at("b") == "b");
}

TEST_CASE("submissions: a call carries each link once", "[gateway]") {
  Fixture f({.max_calls = 1});
  auto& [calls, outcomes, batcher, deadline] = f;
  f.submit(kFormB, "first");
  const std::pair<const char*, std::shared_ptr<const IntakeForm>> order[] = {
      {"a1", kFormA}, {"b1", kFormB}, {"a2", kFormA}, {"a3", kFormA}, {"b2", kFormB}};
  for (const auto& [name, form] : order) f.submit(form, name);
  calls.store(0);
  REQUIRE(calls.made.size() == 2);
  const auto& request = calls.made[1].request;
  REQUIRE(request.links_size() == 2);
  CHECK(request.links(0).link().uuid() == "link-a");
  CHECK(request.links(0).workspace_uuid() == "ws-1");
  CHECK(request.links(0).link().version() == 3);
  CHECK(request.links(1).link().uuid() == "link-b");
  std::vector<int> indexes;
  for (const auto& s : request.submissions()) indexes.push_back(s.link_index());
  CHECK(indexes == std::vector<int>{0, 1, 0, 0, 1});
  CHECK(calls.made[0].request.links_size() == 1);
  CHECK(calls.made[0].request.submissions(0).link_index() == 0);
}

TEST_CASE("submissions: a call carries at most max_batch of them", "[gateway]") {
  Fixture f({.max_calls = 1, .max_batch = 2});
  auto& [calls, outcomes, batcher, deadline] = f;
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) {
    f.submit(kFormA, name);
  }
  for (std::size_t i = 0; i < 4; ++i) {
    REQUIRE(calls.made.size() == i + 1);
    calls.store(i);
  }
  CHECK(names(calls.made[1].request) == std::vector<std::string>{"b", "c"});
  CHECK(names(calls.made[2].request) == std::vector<std::string>{"d", "e"});
  CHECK(names(calls.made[3].request) == std::vector<std::string>{"f"});
  CHECK(outcomes.by_name.size() == 6);
}

TEST_CASE("submissions: one still waiting at its deadline is refused, not sent", "[gateway]") {
  Fixture f({.max_calls = 1});
  auto& [calls, outcomes, batcher, deadline] = f;
  const auto later = Clock::now() + std::chrono::seconds(5);
  f.submit(kFormA, "first", later);
  f.submit(kFormA, "late", Clock::now() + std::chrono::milliseconds(1));
  f.submit(kFormA, "on-time", later);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  calls.store(0);
  CHECK(outcomes.by_name.at("late") == "SERVICE_UNAVAILABLE");
  REQUIRE(calls.made.size() == 2);
  CHECK(names(calls.made[1].request) == std::vector<std::string>{"on-time"});
  CHECK(calls.made[1].deadline == later);
}

TEST_CASE("submissions: a call carries at most max_bytes, a large one alone", "[gateway]") {
  const std::size_t link_bytes = kFormA->link.ByteSizeLong();
  const std::size_t small_bytes = submission("s1").ByteSizeLong();
  Fixture f({.max_calls = 1, .max_bytes = link_bytes + 2 * small_bytes});
  auto& [calls, outcomes, batcher, deadline] = f;
  f.submit(kFormA, "s0");
  for (const char* name : {"s1", "s2", "s3"}) {
    f.submit(kFormA, name);
  }
  batcher.submit(kFormA, submission(std::string(4 * small_bytes, 'x')), deadline,
                 outcomes.of("big"));
  for (std::size_t i = 0; i < 4; ++i) {
    REQUIRE(calls.made.size() == i + 1);
    calls.store(i);
  }
  CHECK(names(calls.made[1].request) == std::vector<std::string>{"s1", "s2"});
  CHECK(names(calls.made[2].request) == std::vector<std::string>{"s3"});
  CHECK(calls.made[3].request.submissions_size() == 1);  // over the cap, but sent alone
  CHECK(outcomes.by_name.size() == 5);
}

TEST_CASE("submissions: beyond max_waiting they are refused at once", "[gateway]") {
  Fixture f({.max_calls = 1, .max_waiting = 2});
  auto& [calls, outcomes, batcher, deadline] = f;
  for (const char* name : {"a", "b", "c", "d"}) {
    f.submit(kFormA, name);
  }
  CHECK(outcomes.by_name == std::map<std::string, std::string>{{"d", "SERVICE_UNAVAILABLE"}});
  calls.store(0);
  calls.store(1);
  CHECK(names(calls.made[1].request) == std::vector<std::string>{"b", "c"});
}
