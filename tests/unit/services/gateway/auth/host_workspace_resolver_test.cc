#include "services/gateway/auth/host_workspace_resolver.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;

namespace {

// Lookups the test answers when it likes: each is kept until answered.
struct FakeLookups {
  std::vector<std::pair<std::string, WorkspaceResolver::Done>> asked;
  HostWorkspaceResolver::Lookup lookup() {
    return [this](const std::string& host, WorkspaceResolver::Done done) {
      asked.emplace_back(host, std::move(done));
    };
  }
  // Answers every lookup under way: hosts of "acme" are found, others are unknown.
  void answerAll(bool available = true) {
    auto now = std::move(asked);
    asked.clear();
    for (auto& [host, done] : now) {
      if (!available) {
        done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnavailable});
      } else if (host.rfind("acme.", 0) == 0) {
        feedback::common::v1::Workspace workspace;
        workspace.set_uuid("ws-acme");
        done(WorkspaceOutcome{WorkspaceOutcome::Kind::kFound, callerOfWorkspace(workspace)});
      } else {
        done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnknown});
      }
    }
  }
};

struct Fixture {
  FakeLookups lookups;
  HostWorkspaceResolver resolver;
  explicit Fixture(std::size_t max_entries = 100)
      : resolver(lookups.lookup(), {"feedback.test", std::chrono::seconds(60),
                                    std::chrono::seconds(60), max_entries}) {}
  // Resolves `host`; the outcome once answered (in `out`).
  void resolve(const std::string& host, std::optional<WorkspaceOutcome>& out) {
    resolver.resolve(host, [&out](WorkspaceOutcome o) { out = std::move(o); });
  }
  WorkspaceOutcome::Kind now(const std::string& host) {
    std::optional<WorkspaceOutcome> out;
    resolve(host, out);
    lookups.answerAll();
    REQUIRE(out);
    return out->kind;
  }
};

}  // namespace

TEST_CASE("hosts: only <subdomain>.<suffix> is ever looked up", "[gateway]") {
  Fixture f;
  for (const char* host :
       {"", "feedback.test", "acme.other.test", "acme.feedback.test.evil", "-acme.feedback.test",
        "a_b.feedback.test", "x.acme.feedback.test", "evil host.feedback.test"}) {
    INFO(host);
    CHECK(f.now(host) == WorkspaceOutcome::Kind::kUnknown);
  }
  CHECK(f.lookups.asked.empty());
}

TEST_CASE("hosts: one lookup per host, whatever its case, port or trailing dot", "[gateway]") {
  Fixture f;
  std::optional<WorkspaceOutcome> a, b, c;
  f.resolve("acme.feedback.test", a);
  f.resolve("ACME.Feedback.Test:8443", b);
  f.resolve("acme.feedback.test.", c);
  REQUIRE(f.lookups.asked.size() == 1);  // concurrent resolutions share the call
  CHECK(f.lookups.asked[0].first == "acme.feedback.test");
  CHECK_FALSE(a);
  f.lookups.answerAll();
  for (auto* out : {&a, &b, &c}) {
    REQUIRE(*out);
    CHECK((*out)->kind == WorkspaceOutcome::Kind::kFound);
    CHECK((*out)->caller->workspace().uuid() == "ws-acme");
  }
  CHECK(f.now("Acme.feedback.test") == WorkspaceOutcome::Kind::kFound);
  CHECK(f.lookups.asked.empty());  // remembered
}

TEST_CASE("hosts: a flood of made-up hosts never pushes out real ones", "[gateway]") {
  Fixture f(4);
  CHECK(f.now("acme.feedback.test") == WorkspaceOutcome::Kind::kFound);
  for (int i = 0; i < 50; ++i) {
    CHECK(f.now("made-up-" + std::to_string(i) + ".feedback.test") ==
          WorkspaceOutcome::Kind::kUnknown);
  }
  std::optional<WorkspaceOutcome> out;
  f.resolve("acme.feedback.test", out);
  CHECK(f.lookups.asked.empty());
  REQUIRE(out);
  CHECK(out->kind == WorkspaceOutcome::Kind::kFound);
  // An unknown host is remembered too.
  CHECK(f.now("made-up-49.feedback.test") == WorkspaceOutcome::Kind::kUnknown);
  CHECK(f.lookups.asked.empty());
}

TEST_CASE("hosts: an unavailable answer is given to every waiter and not remembered", "[gateway]") {
  Fixture f;
  std::optional<WorkspaceOutcome> a, b;
  f.resolve("acme.feedback.test", a);
  f.resolve("acme.feedback.test", b);
  f.lookups.answerAll(false);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->kind == WorkspaceOutcome::Kind::kUnavailable);
  CHECK(b->kind == WorkspaceOutcome::Kind::kUnavailable);
  CHECK(f.now("acme.feedback.test") == WorkspaceOutcome::Kind::kFound);  // asked again
}

TEST_CASE("hosts: no lock is held while answering, so an answer may resolve again", "[gateway]") {
  Fixture f;
  CHECK(f.now("acme.feedback.test") == WorkspaceOutcome::Kind::kFound);
  bool inner = false;
  f.resolver.resolve("acme.feedback.test", [&](WorkspaceOutcome) {
    f.resolver.resolve("acme.feedback.test", [&](WorkspaceOutcome o) {
      inner = o.kind == WorkspaceOutcome::Kind::kFound;
    });
  });
  CHECK(inner);
}
