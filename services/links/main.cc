// links: feedback links and their questions over gRPC (feedback.links.v1.LinksService).
#include <boost/json/serialize.hpp>
#include <iostream>

#include "common/core/log.h"
#include "common/core/secret_box.h"
#include "common/grpc/grpc_kit.h"
#include "common/questions/type_schemas.h"
#include "common/service/periodic_task.h"
#include "common/service/service_runner.h"
#include "services/links/grpc_link_webhooks.h"
#include "services/links/links_grpc.h"
#include "services/links/pg_links_store.h"
#include "services/links/redis_link_versions.h"
#include "services/links/reports_grpc.h"

namespace feedback::links {
std::vector<Migration> migrations();
}

int main(int argc, char** argv) {
  using namespace feedback;
  // The OpenAPI schemas of the question types, which scripts/docs writes into
  // services/gateway/openapi/openapi.json (common/questions/type_schemas.h).
  if (argc > 1 && std::string_view(argv[1]) == "--question-types") {
    std::cout << boost::json::serialize(questions::questionTypeSchemas()) << "\n";
    return 0;
  }
  links::LinksSettings settings;
  std::optional<SecretBox> secrets;
  std::string webhooks_target;
  return serviceMain(
      argc, argv, {"links", 50052, 9092, links::migrations(), &links::PgLinksStore::prepare},
      [&](Env& env) {
        settings.public_scheme = publicScheme(env);
        settings.webhook_allow_private =
            env.boolean("WEBHOOK_ALLOW_PRIVATE", false, {kAllowPrivateAbout});
        webhooks_target = env.grpcTarget(
            "WEBHOOKS_ADDR", "127.0.0.1:50054",
            {"the webhooks service, told of the automatic webhooks of links' on_finished"});
        secrets = SecretBox::fromBase64Key(secretsKey(env));
      },
      [&](ServiceResources& r) {
        links::RedisLinkVersions versions(r.redis);
        links::GrpcLinkWebhooks webhooks(grpckit::makeChannel(webhooks_target));
        links::LinksService service(settings, *secrets, versions, webhooks);
        links::LinksGrpc adapter(service, r.pool, r.counters);
        links::ReportRules reports(settings.public_scheme);
        links::ReportsGrpc reports_adapter(reports, r.pool, r.counters);
        // Automatic webhooks the webhooks service could not be told about when their links
        // changed, and those of links older than it.
        service::PeriodicTask sync(std::chrono::seconds(5), [&] {
          r.pool.trySubmit([&service](PgSession& session) {
            try {
              links::PgLinksStore store(session.connection());
              service.syncWebhooks(store, "");
            } catch (const std::exception& e) {
              log::warn("link_webhook_changes_deferred", {{"error", e.what()}});
            }
          });
        });
        r.serve({&adapter, &reports_adapter});
        r.pool.stop();  // the timer's last job uses `service`: it ends before `service` does
      });
}
