// links: feedback links and their questions over gRPC (feedback.links.v1.LinksService).
#include "common/core/secret_box.h"
#include "common/service/service_runner.h"
#include "services/links/links_grpc.h"
#include "services/links/pg_links_store.h"
#include "services/links/redis_link_versions.h"

namespace feedback::links {
std::vector<Migration> migrations();
}

int main() {
  using namespace feedback;
  links::LinksSettings settings;
  std::optional<SecretBox> secrets;
  return serviceMain(
      {"links", 50052, 9092, links::migrations(), &links::PgLinksStore::prepare},
      [&](Env& env) {
        settings.public_scheme = env.text("PUBLIC_SCHEME", "https");
        settings.webhook_allow_private = env.boolean("WEBHOOK_ALLOW_PRIVATE", false);
        if (settings.public_scheme != "https" && settings.public_scheme != "http") {
          env.problem("PUBLIC_SCHEME must be http or https");
        }
        const std::string key = env.requiredText("SECRETS_KEY");
        secrets = SecretBox::fromBase64Key(key);
        if (!key.empty() && !secrets) env.problem("SECRETS_KEY must be base64 of 32 bytes");
      },
      [&](ServiceResources& r) {
        links::RedisLinkVersions versions(r.redis);
        links::LinksService service(settings, *secrets, versions);
        links::LinksGrpc adapter(service, r.pool, r.counters);
        r.serve(adapter);
      });
}
