#include "services/responses/response_writer.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/core/time.h"
#include "common/service/pool_reactor.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

bool completes(const NewResponse& r) {
  return r.stored.response.submitted_at_micros() != 0;
}

}  // namespace

bool isLostConnection(const std::exception_ptr& error) {
  const auto failure = service::databaseFailureOf(error);
  return failure && *failure != service::DatabaseFailure::kRolledBack;
}

void writeBatch(ResponsesStore& store, LinkCounts& counts,
                const std::vector<const NewResponse*>& batch,
                std::vector<std::exception_ptr>& errors) {
  errors.assign(batch.size(), nullptr);
  // Completed responses per link, each link begun once for all of them.
  struct Link {
    std::string workspace_uuid;
    std::vector<std::string> submissions;
  };
  std::map<std::string, Link> completing;
  for (const auto* r : batch) {
    if (!completes(*r)) continue;
    auto& link = completing[r->stored.response.link_uuid()];
    link.workspace_uuid = r->stored.workspace_uuid;
    link.submissions.push_back(r->stored.response.uuid());
  }
  for (auto it = completing.begin(); it != completing.end();) {
    try {
      counts.begin(it->first, it->second.submissions);
      ++it;
    } catch (const ApiError&) {
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (completes(*batch[i]) && batch[i]->stored.response.link_uuid() == it->first) {
          errors[i] = std::current_exception();
        }
      }
      it = completing.erase(it);
    }
  }
  // In link order: concurrent batches then take the rows of link_counts they share in the
  // same order, and cannot deadlock.
  std::vector<const NewResponse*> writing;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!errors[i]) writing.push_back(batch[i]);
  }
  std::stable_sort(writing.begin(), writing.end(), [](const auto* a, const auto* b) {
    return a->stored.response.link_uuid() < b->stored.response.link_uuid();
  });
  if (writing.empty()) return;
  try {
    store.insertResponses(writing);
  } catch (...) {
    // A lost connection may have lost the answer to a commit that happened: the links then
    // stay pending (their counts are read from PostgreSQL) rather than trusted too early.
    if (!isLostConnection(std::current_exception())) {
      for (const auto& [link, entry] : completing) {
        counts.settle(link, std::nullopt, entry.submissions);
      }
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (!errors[i]) errors[i] = std::current_exception();
    }
    return;
  }
  // Counts read after the commit; should they be unreadable, the links stay pending and the
  // gateways read their counts from PostgreSQL: right, only slower.
  std::map<std::string, std::vector<std::string>> by_workspace;
  for (const auto& [link, entry] : completing) by_workspace[entry.workspace_uuid].push_back(link);
  for (const auto& [workspace, links] : by_workspace) {
    std::map<std::string, int64_t> read;
    const int64_t started_ms = nowMicros() / 1000;
    try {
      read = store.completedCounts(workspace, links);
    } catch (const std::exception& e) {
      log::warn("response_count_unread", {{"workspace_uuid", workspace}, {"error", e.what()}});
      continue;
    }
    for (const auto& link : links) {
      counts.settle(link, CountRead{read[link], started_ms}, completing[link].submissions);
    }
  }
}

void DirectResponseWriter::write(NewResponse response, WriteDone done) {
  std::vector<std::exception_ptr> errors;
  writeBatch(store_, counts_, {&response}, errors);
  done(errors[0]);
}

void DirectResponseWriter::writeNow(NewResponse response) {
  std::exception_ptr error;
  write(std::move(response), [&error](std::exception_ptr e) { error = std::move(e); });
  if (error) std::rethrow_exception(error);
}

BatchingResponseWriter::BatchingResponseWriter(const std::string& database_url, LinkCounts& counts,
                                               Counters& counters, int connections,
                                               std::size_t max_queued, std::size_t max_batch)
    : counts_(counts),
      counters_(counters),
      max_queued_(max_queued),
      max_batch_(max_batch),
      connections_(connections),
      writers_(database_url, connections, static_cast<std::size_t>(connections),
               &PgResponsesStore::prepare) {}

BatchingResponseWriter::~BatchingResponseWriter() {
  stop();
}

void BatchingResponseWriter::stop() {
  writers_.stop();
}

void BatchingResponseWriter::write(NewResponse response, WriteDone done) {
  const char* refusal = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= max_queued_) {
      refusal = "The service is busy.";
    } else {
      queue_.push_back(std::make_unique<Pending>(Pending{std::move(response), std::move(done)}));
      if (draining_ < connections_) {
        ++draining_;
        if (!writers_.trySubmit([this](PgSession& session) { drain(session); })) {
          --draining_;
          done = std::move(queue_.back()->done);
          queue_.pop_back();
          refusal = "The service is stopping.";
        }
      }
    }
  }
  // Outside the lock: `done` may write again.
  if (refusal) done(std::make_exception_ptr(ApiError(ErrorCode::kServiceUnavailable, refusal)));
}

void BatchingResponseWriter::drain(PgSession& session) {
  for (;;) {
    std::vector<std::unique_ptr<Pending>> taken;
    {
      std::lock_guard lock(mutex_);
      while (!queue_.empty() && taken.size() < max_batch_) {
        taken.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      if (taken.empty()) {
        --draining_;
        return;
      }
    }
    std::vector<std::exception_ptr> errors(taken.size());
    try {
      std::vector<const NewResponse*> batch;
      for (const auto& p : taken) batch.push_back(&p->response);
      counters_.increment("response_write_batches_total");
      counters_.increment("response_writes_total", batch.size());
      PgResponsesStore store(session.connection());
      writeBatch(store, counts_, batch, errors);
    } catch (...) {
      // No connection: nothing was begun or written.
      for (auto& e : errors) e = std::current_exception();
    }
    // The database's failures made the contract's, as for every other call (runOnSession): a
    // batch PostgreSQL undid (a deadlock's victim) wrote nothing; after a lost connection the
    // next batch reconnects.
    bool lost = false;
    for (auto& e : errors) {
      if (const auto failure = service::databaseFailureOf(e)) {
        lost |= *failure != service::DatabaseFailure::kRolledBack;
        e = std::make_exception_ptr(service::apiErrorFor(*failure));
      }
    }
    if (lost) {
      session.reset();
      log::warn("postgres_connection_lost", {{"writer", "responses"}});
    }
    for (std::size_t i = 0; i < taken.size(); ++i) taken[i]->done(errors[i]);
  }
}

}  // namespace feedback::responses
