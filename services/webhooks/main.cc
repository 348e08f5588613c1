// webhooks: the webhooks API over gRPC (feedback.webhooks.v1.WebhooksService) and the
// dispatcher that delivers events to them (dispatcher.h).
#include <boost/asio/ip/address.hpp>

#include "common/core/log.h"
#include "common/core/net_address.h"
#include "common/core/secret_box.h"
#include "common/service/periodic_task.h"
#include "common/service/service_runner.h"
#include "services/webhooks/dispatcher.h"
#include "services/webhooks/pg_dispatch_store.h"
#include "services/webhooks/pg_webhooks_store.h"
#include "services/webhooks/webhooks_grpc.h"

namespace feedback::webhooks {
std::vector<Migration> migrations();

namespace {

// The SSRF check on the address actually connected to (DNS rebinding cannot get around it).
bool publicAddress(const boost::asio::ip::address& address) {
  if (address.is_v4()) {
    auto bytes = address.to_v4().to_bytes();
    return !isPrivateAddress(bytes.data(), bytes.size());
  }
  auto bytes = address.to_v6().to_bytes();
  return !isPrivateAddress(bytes.data(), bytes.size());
}

constexpr auto kPruneEvery = std::chrono::minutes(10);
constexpr int kPruneBatch = 5000;
// At most this many batches per run, so that pruning never holds a pool worker for long.
constexpr int kPruneBatchesPerRun = 200;

// Deletes old deliveries and events, a batch per statement, until none is left or the run's
// share is spent (the next run goes on).
void pruneOldDeliveries(PgSession& session) {
  PgDispatchStore::Pruned total;
  try {
    PgDispatchStore store(session.connection());
    for (int i = 0; i < kPruneBatchesPerRun; ++i) {
      auto pruned = store.prune(kDeliveryRetentionDays, kPruneBatch);
      total.deliveries += pruned.deliveries;
      total.events += pruned.events;
      if (pruned.deliveries < kPruneBatch && pruned.events < kPruneBatch) break;
    }
  } catch (const std::exception& e) {
    log::warn("webhook_prune_failed", {{"error", e.what()}});
  }
  if (total.deliveries > 0 || total.events > 0) {
    log::info("webhook_deliveries_pruned", {{"deliveries", std::to_string(total.deliveries)},
                                            {"events", std::to_string(total.events)}});
  }
}

}  // namespace
}  // namespace feedback::webhooks

int main(int argc, char** argv) {
  using namespace feedback;
  webhooks::WebhooksSettings settings;
  webhooks::DispatcherSettings dispatch;
  bool dispatcher_on = true;
  std::optional<SecretBox> secrets;
  std::string secrets_key;
  return serviceMain(
      argc, argv,
      {"webhooks", 50054, 9094, webhooks::migrations(),
       [](pqxx::connection& c) {
         webhooks::PgWebhooksStore::prepare(c);
         webhooks::PgDispatchStore::preparePrune(c);  // pruning runs on the pool
       }},
      [&](Env& env) {
        settings.allow_private = env.boolean("WEBHOOK_ALLOW_PRIVATE", false, {kAllowPrivateAbout});
        dispatch.database_url = env.requiredText("DATABASE_URL");
        dispatch.retry_scale = env.number("WEBHOOK_RETRY_SCALE", 1.0, 0.0, 1000.0,
                                          {"multiplies every retry delay (tests use 0.01)"});
        dispatch.http.ca_bundle =
            env.text("WEBHOOK_CA_BUNDLE", "",
                     {"a PEM file of CAs trusted besides the system's for deliveries"});
        dispatch.max_in_flight = env.integer("WEBHOOK_MAX_IN_FLIGHT", 256, 1, 100000,
                                             {"sends under way at once per dispatcher"});
        dispatch.per_webhook = env.integer("WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", 16, 1, 1000,
                                           {"sends under way at once to one webhook"});
        // Every send in flight to a receiver may keep its connection: fewer would mean a TLS
        // handshake for many sends at full load.
        dispatch.http.max_idle_per_host = static_cast<std::size_t>(dispatch.per_webhook);
        dispatch.http.timeout = webhooks::Millis(
            env.integer("WEBHOOK_TIMEOUT_MS", 15000, 100, 60000,
                        {"the deadline of one delivery attempt: connect, TLS, request, answer"}));
        if (!settings.allow_private) dispatch.http.address_allowed = &webhooks::publicAddress;
        dispatcher_on = env.boolean("WEBHOOK_DISPATCHER", true,
                                    {"run the dispatcher in this process (false: the API only)"});
        secrets_key = secretsKey(env);
        secrets = SecretBox::fromBase64Key(secrets_key);
      },
      [&](ServiceResources& r) {
        webhooks::WebhooksService service(settings, *secrets);
        webhooks::WebhooksGrpc adapter(service, r.pool, r.counters);
        // Media addresses in payloads are signed afresh for each attempt (the scheme is the
        // address's own).
        const api::MediaUrls media_urls(secrets_key, "");
        std::optional<webhooks::Dispatcher> dispatcher;
        if (dispatcher_on) {
          dispatcher.emplace(dispatch, *secrets, media_urls, r.counters);
          dispatcher->start();
        }
        service::PeriodicTask prune(webhooks::kPruneEvery, [&] {
          r.pool.trySubmit([](PgSession& session) { webhooks::pruneOldDeliveries(session); });
        });
        r.serve({&adapter});
        if (dispatcher) dispatcher->stop();
        r.pool.stop();  // the last prune ends before what it uses does
      });
}
