#include "services/responses/response_writer.h"

#include <algorithm>
#include <map>
#include <pqxx/except>
#include <set>

#include "common/core/errors.h"
#include "common/core/log.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

bool completes(const NewResponse& r) {
  return r.stored.response.submitted_at_micros() != 0;
}

// The next batch must reconnect after this (libpqxx 6 still reports the connection open).
bool isLostConnection(const std::exception_ptr& error) {
  if (!error) return false;
  try {
    std::rethrow_exception(error);
  } catch (const pqxx::broken_connection&) {
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

void writeBatch(ResponsesStore& store, LinkCounts& counts,
                const std::vector<const NewResponse*>& batch,
                std::vector<std::exception_ptr>& errors) {
  errors.assign(batch.size(), nullptr);
  // Completed responses per link (with its workspace), each link begun once for all of them.
  std::map<std::string, std::pair<std::string, int64_t>> completing;
  for (const auto* r : batch) {
    if (!completes(*r)) continue;
    auto& entry = completing[r->stored.response.link_uuid()];
    entry.first = r->stored.workspace_uuid;
    ++entry.second;
  }
  for (auto it = completing.begin(); it != completing.end();) {
    try {
      counts.begin(it->first, it->second.second);
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
  std::vector<const NewResponse*> writing;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!errors[i]) writing.push_back(batch[i]);
  }
  if (writing.empty()) return;
  try {
    store.insertResponses(writing);
  } catch (...) {
    for (const auto& [link, entry] : completing) counts.settle(link, std::nullopt, entry.second);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (!errors[i]) errors[i] = std::current_exception();
    }
    return;
  }
  // Counts read after the commit; should they be unreadable, the links stay pending and the
  // gateways read their counts from PostgreSQL: right, only slower.
  std::map<std::string, std::vector<std::string>> by_workspace;
  for (const auto& [link, entry] : completing) by_workspace[entry.first].push_back(link);
  for (const auto& [workspace, links] : by_workspace) {
    std::map<std::string, int64_t> read;
    try {
      read = store.completedCounts(workspace, links);
    } catch (const std::exception& e) {
      log::warn("response_count_unread", {{"workspace_uuid", workspace}, {"error", e.what()}});
      continue;
    }
    for (const auto& link : links) counts.settle(link, read[link], completing[link].second);
  }
}

void DirectResponseWriter::write(NewResponse response) {
  std::vector<std::exception_ptr> errors;
  writeBatch(store_, counts_, {&response}, errors);
  if (errors[0]) std::rethrow_exception(errors[0]);
}

BatchingResponseWriter::BatchingResponseWriter(const std::string& database_url, LinkCounts& counts,
                                               Counters& counters, int connections,
                                               std::size_t max_batch)
    : counts_(counts),
      counters_(counters),
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

void BatchingResponseWriter::write(NewResponse response) {
  Pending pending{std::move(response), {}};
  auto done = pending.done.get_future();
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(&pending);
    if (draining_ < connections_) {
      ++draining_;
      if (!writers_.trySubmit([this](PgSession& session) { drain(session); })) {
        --draining_;
        queue_.pop_back();
        throw ApiError(ErrorCode::kServiceUnavailable, "The service is stopping.");
      }
    }
  }
  done.get();  // rethrows the batch's error for this response
}

void BatchingResponseWriter::drain(PgSession& session) {
  for (;;) {
    std::vector<Pending*> taken;
    {
      std::lock_guard lock(mutex_);
      while (!queue_.empty() && taken.size() < max_batch_) {
        taken.push_back(queue_.front());
        queue_.pop_front();
      }
      if (taken.empty()) {
        --draining_;
        return;
      }
    }
    std::vector<const NewResponse*> batch;
    for (auto* p : taken) batch.push_back(&p->response);
    counters_.increment("response_write_batches_total");
    counters_.increment("response_writes_total", batch.size());
    std::vector<std::exception_ptr> errors(batch.size());
    try {
      PgResponsesStore store(session.connection());
      writeBatch(store, counts_, batch, errors);
    } catch (...) {
      // No connection: nothing was begun or written.
      for (auto& e : errors) e = std::current_exception();
    }
    if (std::any_of(errors.begin(), errors.end(), isLostConnection)) session.reset();
    for (std::size_t i = 0; i < taken.size(); ++i) {
      if (errors[i]) {
        taken[i]->done.set_exception(errors[i]);
      } else {
        taken[i]->done.set_value();
      }
    }
  }
}

}  // namespace feedback::responses
