// tokens: workspaces, plans and API keys over gRPC (feedback.tokens.v1.TokensService).
#include "common/service/service_runner.h"
#include "services/tokens/pg_tokens_store.h"
#include "services/tokens/redis_key_cache.h"
#include "services/tokens/tokens_grpc.h"

namespace feedback::tokens {
std::vector<Migration> migrations();
}

int main(int argc, char** argv) {
  using namespace feedback;
  tokens::TokensSettings settings;
  return serviceMain(
      argc, argv, {"tokens", 50051, 9091, tokens::migrations(), &tokens::PgTokensStore::prepare},
      [&](Env& env) {
        settings.public_host_suffix =
            env.text("PUBLIC_HOST_SUFFIX", "localhost", {kHostSuffixAbout});
      },
      [&](ServiceResources& r) {
        tokens::RedisKeyCache cache(r.redis);
        tokens::TokensService service(settings, cache);
        tokens::TokensGrpc adapter(service, r.pool, r.counters);
        r.serve({&adapter});
      });
}
