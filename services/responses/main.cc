// responses: responses to feedback links over gRPC (feedback.responses.v1.ResponsesService):
// the public intake's writes, with their outbox events, and the reads of the API.
#include <algorithm>
#include <optional>
#include <thread>

#include "common/service/service_runner.h"
#include "services/responses/ai_settings.h"
#include "services/responses/erasure/erasure_grpc.h"
#include "services/responses/erasure/pg_erasure_store.h"
#include "services/responses/erasure/retention_task.h"
#include "services/responses/evaluation/local_evaluator.h"
#include "services/responses/export/export_grpc.h"
#include "services/responses/export/export_xlsx.h"
#include "services/responses/facts_backfill.h"
#include "services/responses/media/blob_collector.h"
#include "services/responses/media/media_grpc.h"
#include "services/responses/media/media_settings.h"
#include "services/responses/media/pg_blob_store.h"
#include "services/responses/media/transcription_jobs.h"
#include "services/responses/pg_responses_store.h"
#include "services/responses/redis_link_counts.h"
#include "services/responses/responses_grpc.h"
#include "services/responses/search_index_merger.h"

namespace feedback::responses {
std::vector<Migration> migrations();

// Every statement a worker's connection may run.
void prepareStatements(pqxx::connection& connection) {
  PgResponsesStore::prepare(connection);
  PgBlobStore::prepare(connection);
  PgErasureStore::prepare(connection);
}
}  // namespace feedback::responses

int main(int argc, char** argv) {
  using namespace feedback;
  int writers = 1;
  int merge_search_index_ms = 0;
  int exporters = 2;
  int erasers = 1;
  int retention_interval_ms = 600000;
  responses::ExportOptions export_options;
  responses::AiSettings ai;
  responses::MediaSettings media;
  return serviceMain(
      argc, argv,
      {"responses", 50053, 9093, responses::migrations(), &responses::prepareStatements},
      [&](Env& env) {
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        // New responses are written in batches, one per connection at a time.
        writers = env.integer(
            "RESPONSE_WRITERS", cores, 1, 64,
            {"connections that write new responses, in batches", "the number of cores"});
        merge_search_index_ms = env.integer(
            "SEARCH_INDEX_MERGE_MS", 1000, 0, 60000,
            {"how often the search index's pending list is merged on a connection of its "
             "own, so that submissions never wait for a merge (0: submissions merge it as "
             "PostgreSQL does by default); the database user must own the index"});
        exporters = env.integer(
            "EXPORT_CONCURRENCY", 2, 1, 64,
            {"exports read at once, each on a connection of its own for as long as its client "
             "takes the file; as many more wait, and further ones are answered 503"});
        export_options.temporary_directory = env.text(
            "EXPORT_TMPDIR", "/tmp",
            {"a writable directory where XLSX exports keep their worksheets and finished files "
             "while they are sent (a few times the file's size per export under way)"});
        if (!responses::writableDirectory(export_options.temporary_directory)) {
          env.problem("EXPORT_TMPDIR must be a writable directory");
        }
        erasers =
            env.integer("ERASURE_CONCURRENCY", 1, 1, 16,
                        {"respondents' erasures (POST /v1/responses/erase/) run at once, each on a "
                         "connection of its own; 100 more wait, and further ones are answered 503 "
                         "(deletions of one response run on the API's pool)"});
        retention_interval_ms = env.integer(
            "RETENTION_INTERVAL_MS", 600000, 100, 3600000,
            {"how often responses older than their workspace's retention are erased (within an "
             "hour of expiring at the default)"});
        ai = responses::readAiSettings(env);
        media = responses::readMediaSettings(env);
      },
      [&](ServiceResources& r) {
        responses::RedisLinkCounts link_counts(r.redis, r.counters);
        responses::BatchingResponseWriter writer(r.basics.database_url, link_counts, r.counters,
                                                 writers);
        std::optional<responses::SearchIndexMerger> merger;
        if (merge_search_index_ms > 0) {
          merger.emplace(r.basics.database_url, r.counters,
                         std::chrono::milliseconds(merge_search_index_ms));
        }
        responses::FactsBackfill backfill(r.basics.database_url, r.counters);
        const responses::evaluation::LocalEvaluator evaluator;
        const api::MediaUrls media_urls(media.secret, media.public_scheme);
        responses::ResponsesService service(link_counts, evaluator, ai.mode, &media_urls);
        std::optional<responses::evaluation::ModelServer> model;
        std::optional<responses::InsightJobs> insight_jobs;
        ai.jobs.database_url = r.basics.database_url;
        if (ai.mode == responses::InsightsMode::kQueued) {
          model.emplace(ai.model);
          insight_jobs.emplace(ai.jobs, service, &*model, evaluator, ai.model.timeout, r.counters);
        } else if (ai.mode == responses::InsightsMode::kInline) {
          // Jobs a model server was to do before the switch to local: finished locally.
          ai.jobs.workers = 1;
          ai.jobs.poll = std::chrono::seconds(5);
          insight_jobs.emplace(ai.jobs, service, nullptr, evaluator, ai.model.timeout, r.counters);
        }
        responses::ResponsesGrpc adapter(service, writer, r.pool, r.counters);
        // Made in this order and stopped in the other (below): each calls the one after it.
        std::optional<responses::TranscriptionJobs> transcriptions;
        std::optional<responses::SpeechServer> speech_server;
        std::optional<responses::SpeechServerJobs> speech_server_jobs;
        responses::MediaAnswers media_answers(
            service, [&transcriptions] { transcriptions->wake(); },
            media.speech_server.has_value());
        if (media.speech_server) {
          speech_server.emplace(*media.speech_server);
          media.speech_server_jobs.database_url = r.basics.database_url;
          speech_server_jobs.emplace(media.speech_server_jobs, *speech_server,
                                     media.speech_server->timeout, media_answers, r.counters);
        }
        media.transcription.database_url = r.basics.database_url;
        transcriptions.emplace(media.transcription, media_answers, r.counters,
                               [&speech_server_jobs] {
                                 if (speech_server_jobs) speech_server_jobs->wake();
                               });
        responses::BlobCollector blob_collector(r.basics.database_url, r.counters,
                                                media.blob_collection);
        responses::SpeechSynthesizer speech;
        responses::TranscriberPool live(media.transcription.model, media.live_streams);
        responses::MediaGrpc media_adapter(media_answers, speech, live, r.pool, r.counters);
        const responses::ResponseExport exports(&media_urls, export_options);
        PgPool export_pool(r.basics.database_url, exporters, static_cast<std::size_t>(exporters),
                           &responses::PgResponsesStore::prepareExports);
        responses::ExportGrpc export_adapter(exports, export_pool, r.counters);
        responses::ResponseErasure erasure(link_counts, r.counters);
        PgPool erasure_pool(r.basics.database_url, erasers, 100,
                            &responses::PgErasureStore::prepareSession);
        responses::ErasureGrpc erasure_adapter(erasure, r.pool, erasure_pool, r.counters);
        responses::RetentionTask retention(r.basics.database_url, erasure, r.counters,
                                           std::chrono::milliseconds(retention_interval_ms));
        r.serve({&adapter, &media_adapter, &export_adapter, &erasure_adapter});
        // The workers use media_answers, declared after them: they stop first, the
        // transcriptions (which wake the speech server's) before the speech server's.
        transcriptions.reset();
        speech_server_jobs.reset();
      });
}
