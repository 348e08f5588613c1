// WebhooksService on an in-memory store: what the rules decide, whatever the storage.
#include "services/webhooks/webhooks_service.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <map>

#include "common/core/crypto.h"
#include "common/core/errors.h"

namespace wh = feedback::webhooks;
namespace v1 = feedback::webhooks::v1;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
constexpr const char* kOtherWorkspace = "0b7c8d9e-1f20-4a3b-8c4d-5e6f7a8b9c0d";
constexpr const char* kLink = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

class FakeStore final : public wh::WebhooksStore {
 public:
  std::vector<wh::WebhookRecord> hooks;
  std::vector<std::pair<std::string, v1::Delivery>> deliveries;  // webhook uuid, delivery
  std::map<std::string, wh::QueuedEvent> events;                 // by event id
  std::vector<std::pair<std::string, wh::QueuedEvent>> queued;   // webhook uuid, event

  void insertWebhook(wh::WebhookRecord& record) override {
    record.webhook.set_date_created_micros(1);
    record.webhook.set_date_updated_micros(1);
    hooks.push_back(record);
  }
  wh::WebhookRecord putLinkWebhook(wh::WebhookRecord& record) override {
    for (const auto& h : hooks) {
      if (h.webhook.link_uuid() == record.webhook.link_uuid()) return h;
    }
    insertWebhook(record);
    return record;
  }
  std::optional<wh::WebhookRecord> findWebhook(const std::string& ws,
                                               const std::string& uuid) override {
    for (const auto& h : hooks) {
      if (h.workspace_uuid == ws && h.webhook.uuid() == uuid) return h;
    }
    return std::nullopt;
  }
  int64_t countWebhooks(const std::string& ws) override {
    return std::count_if(hooks.begin(), hooks.end(),
                         [&](const auto& h) { return h.workspace_uuid == ws; });
  }
  std::vector<v1::Webhook> listWebhooks(const std::string& ws, int64_t offset, int limit) override {
    std::vector<v1::Webhook> out;
    for (const auto& h : hooks) {
      if (h.workspace_uuid == ws && offset-- <= 0 && static_cast<int>(out.size()) < limit) {
        out.push_back(h.webhook);
      }
    }
    return out;
  }
  bool deleteWebhook(const std::string& ws, const std::string& uuid) override {
    auto before = hooks.size();
    std::erase_if(
        hooks, [&](const auto& h) { return h.workspace_uuid == ws && h.webhook.uuid() == uuid; });
    return hooks.size() != before;
  }
  int removeLinkWebhooks(const std::string& ws, const std::string& link) override {
    auto before = hooks.size();
    std::erase_if(hooks, [&](const auto& h) {
      return h.workspace_uuid == ws && h.webhook.link_uuid() == link;
    });
    return static_cast<int>(before - hooks.size());
  }
  int64_t countDeliveries(const std::string& hook) override {
    return std::count_if(deliveries.begin(), deliveries.end(),
                         [&](const auto& d) { return d.first == hook; });
  }
  std::vector<v1::Delivery> listDeliveries(const std::string& hook, int64_t, int) override {
    std::vector<v1::Delivery> out;
    for (const auto& [h, d] : deliveries) {
      if (h == hook) out.push_back(d);
    }
    return out;
  }
  std::optional<wh::QueuedEvent> deliveredEvent(const std::string& hook,
                                                const std::string& delivery) override {
    for (const auto& [h, d] : deliveries) {
      if (h == hook && d.uuid() == delivery) return events.at(d.event_id());
    }
    return std::nullopt;
  }
  bool queue(const std::string& hook, const std::string&, const wh::QueuedEvent& event) override {
    if (event.erased) return false;
    queued.emplace_back(hook, event);
    return true;
  }
};

feedback::SecretBox box() {
  return *feedback::SecretBox::fromBase64Key(feedback::crypto::base64Encode(std::string(32, 'k')));
}

struct Fixture {
  FakeStore store;
  feedback::SecretBox secrets = box();
  wh::WebhooksService service{wh::WebhooksSettings{}, secrets};

  feedback::common::v1::Caller caller(const char* ws = kWorkspace) {
    feedback::common::v1::Caller c;
    c.mutable_workspace()->set_uuid(ws);
    return c;
  }
  v1::CreateWebhookRequest request(std::string url = "https://hooks.example.com/in",
                                   std::vector<std::string> events = {"response.submitted"}) {
    v1::CreateWebhookRequest r;
    *r.mutable_caller() = caller();
    r.set_workspace_uuid(kWorkspace);
    r.set_url(url);
    r.set_has_events(true);
    for (auto& e : events) r.add_events(e);
    return r;
  }
  v1::CreateWebhookResponse create(const v1::CreateWebhookRequest& r) {
    return service.createWebhook(store, r);
  }
};

ErrorCode codeOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.code();
  }
  return ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE("webhooks rules: a created webhook, its secret shown once and stored sealed",
          "[webhooks]") {
  Fixture f;
  auto made = f.create(f.request("https://hooks.example.com/in",
                                 {"response.submitted", "response.started", "response.started"}));
  CHECK(made.secret().rfind("whsec_", 0) == 0);
  const auto& hook = made.webhook();
  CHECK(hook.enabled());
  CHECK(hook.link_uuid().empty());
  // Each event once, in the table's order.
  REQUIRE(hook.events_size() == 2);
  CHECK(hook.events(0) == "response.started");
  CHECK(hook.events(1) == "response.submitted");
  REQUIRE(f.store.hooks.size() == 1);
  const auto& sealed = f.store.hooks[0].sealed_secret;
  CHECK(sealed.find(made.secret()) == std::string::npos);
  CHECK(*f.secrets.open(sealed) == made.secret());

  auto given = f.request();
  given.set_secret("s3cret");
  given.set_enabled(false);
  auto second = f.create(given);
  CHECK(second.secret() == "s3cret");
  CHECK_FALSE(second.webhook().enabled());
}

TEST_CASE("webhooks rules: bad input gets the contract's codes", "[webhooks]") {
  Fixture f;
  CHECK(codeOf([&] { f.create(f.request("http://hooks.example.com/in")); }) ==
        ErrorCode::kInvalidWebhookUrl);
  CHECK(codeOf([&] { f.create(f.request("https://127.0.0.1:18443/in")); }) ==
        ErrorCode::kInvalidWebhookUrl);
  auto no_url = f.request();
  no_url.clear_url();
  CHECK(codeOf([&] { f.create(no_url); }) == ErrorCode::kInvalidWebhookUrl);
  CHECK(codeOf([&] { f.create(f.request("https://hooks.example.com/in", {})); }) ==
        ErrorCode::kInvalidEvent);
  CHECK(codeOf([&] {
          f.create(f.request("https://hooks.example.com/in", {"response.deleted"}));
        }) == ErrorCode::kInvalidEvent);
  auto no_events = f.request();
  no_events.set_has_events(false);
  CHECK(codeOf([&] { f.create(no_events); }) == ErrorCode::kInvalidEvent);
  auto bad_secret = f.request();
  bad_secret.set_secret("");
  CHECK(codeOf([&] { f.create(bad_secret); }) == ErrorCode::kValidationError);
  CHECK(f.store.hooks.empty());
}

TEST_CASE("webhooks rules: private targets are accepted only when allowed", "[webhooks]") {
  Fixture f;
  wh::WebhooksService open_service(wh::WebhooksSettings{true}, f.secrets);
  CHECK_NOTHROW(open_service.createWebhook(f.store, f.request("https://127.0.0.1:18443/in")));
}

TEST_CASE("webhooks rules: another workspace's webhooks are absent", "[webhooks]") {
  Fixture f;
  auto made = f.create(f.request());
  auto other = f.request();
  other.set_workspace_uuid(kOtherWorkspace);
  CHECK(codeOf([&] { f.create(other); }) == ErrorCode::kNotFound);

  v1::ListWebhooksRequest list;
  *list.mutable_caller() = f.caller();
  list.set_workspace_uuid(kOtherWorkspace);
  CHECK(codeOf([&] { f.service.listWebhooks(f.store, list); }) == ErrorCode::kNotFound);
  list.set_workspace_uuid(kWorkspace);
  CHECK(f.service.listWebhooks(f.store, list).count() == 1);

  v1::DeleteWebhookRequest del;
  *del.mutable_caller() = f.caller(kOtherWorkspace);
  del.set_workspace_uuid(kOtherWorkspace);
  del.set_webhook_uuid(made.webhook().uuid());
  CHECK(codeOf([&] { f.service.deleteWebhook(f.store, del); }) == ErrorCode::kNotFound);
  del.set_webhook_uuid("not-a-uuid");
  CHECK(codeOf([&] { f.service.deleteWebhook(f.store, del); }) == ErrorCode::kNotFound);
  CHECK(f.store.hooks.size() == 1);

  *del.mutable_caller() = f.caller();
  del.set_workspace_uuid(kWorkspace);
  del.set_webhook_uuid(made.webhook().uuid());
  f.service.deleteWebhook(f.store, del);
  CHECK(f.store.hooks.empty());
  CHECK(codeOf([&] { f.service.deleteWebhook(f.store, del); }) == ErrorCode::kNotFound);
}

TEST_CASE("webhooks rules: a link's automatic webhook is made once and removed with it",
          "[webhooks]") {
  Fixture f;
  v1::PutLinkWebhookRequest put;
  put.set_workspace_uuid(kWorkspace);
  put.set_link_uuid(kLink);
  put.set_url("https://hooks.example.com/done");
  put.set_secret("s3cret");
  auto first = f.service.putLinkWebhook(f.store, put).webhook();
  auto again = f.service.putLinkWebhook(f.store, put).webhook();
  CHECK(first.uuid() == again.uuid());
  CHECK(first.link_uuid() == kLink);
  REQUIRE(first.events_size() == 1);
  CHECK(first.events(0) == "response.submitted");
  CHECK(*f.secrets.open(f.store.hooks.at(0).sealed_secret) == "s3cret");

  v1::RemoveLinkWebhooksRequest remove;
  remove.set_workspace_uuid(kWorkspace);
  remove.set_link_uuid(kLink);
  CHECK(f.service.removeLinkWebhooks(f.store, remove).removed() == 1);
  CHECK(f.service.removeLinkWebhooks(f.store, remove).removed() == 0);
}

TEST_CASE("webhooks rules: the test event is a realistic response.submitted marked test",
          "[webhooks]") {
  Fixture f;
  auto made = f.create(f.request());
  v1::SendTestEventRequest test;
  *test.mutable_caller() = f.caller();
  test.set_workspace_uuid(kWorkspace);
  test.set_webhook_uuid(made.webhook().uuid());
  auto sent = f.service.sendTestEvent(f.store, test);
  REQUIRE(f.store.queued.size() == 1);
  const auto& event = f.store.queued[0].second;
  CHECK(event.event_id == sent.event_id());
  CHECK(event.test);
  auto body = boost::json::parse(event.payload).as_object();
  CHECK(body.at("type") == "response.submitted");
  CHECK(body.at("test") == true);
  const auto& data = body.at("data").as_object();
  CHECK(data.at("workspace_uuid") == kWorkspace);
  const auto& response = data.at("response").as_object();
  CHECK(response.at("status") == "completed");
  bool rating = false, card = false;
  for (const auto& a : response.at("answers").as_array()) {
    rating = rating || a.as_object().contains("rating_details");
    card = card || a.as_object().contains("selected_card");
  }
  CHECK(rating);
  CHECK(card);
}

TEST_CASE("webhooks rules: redelivery sends the delivery's own event again", "[webhooks]") {
  Fixture f;
  auto made = f.create(f.request());
  const auto& hook = made.webhook().uuid();
  wh::QueuedEvent event{"9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6", "response.submitted", kLink, "{}"};
  f.store.events[event.event_id] = event;
  v1::Delivery d;
  d.set_uuid("aa1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6");
  d.set_event_id(event.event_id);
  f.store.deliveries.emplace_back(hook, d);

  v1::RedeliverRequest redeliver;
  *redeliver.mutable_caller() = f.caller();
  redeliver.set_workspace_uuid(kWorkspace);
  redeliver.set_webhook_uuid(hook);
  redeliver.set_delivery_uuid(d.uuid());
  CHECK(f.service.redeliver(f.store, redeliver).event_id() == event.event_id);
  REQUIRE(f.store.queued.size() == 1);
  CHECK(f.store.queued[0].first == hook);
  CHECK(f.store.queued[0].second.redelivery);
  CHECK(f.store.queued[0].second.event_id == event.event_id);

  redeliver.set_delivery_uuid("bb1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6");
  CHECK(codeOf([&] { f.service.redeliver(f.store, redeliver); }) == ErrorCode::kNotFound);
  redeliver.set_delivery_uuid("nope");
  CHECK(codeOf([&] { f.service.redeliver(f.store, redeliver); }) == ErrorCode::kNotFound);
}
