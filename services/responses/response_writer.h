#pragma once
// Writing new responses: stored with their events and, when completed, counted for their
// link (LinkCounts: begun before the commit, settled with a count read after it), then
// reported to the caller. BatchingResponseWriter lets concurrent submissions share one
// transaction, one count read and one Redis round trip per link; nobody's thread waits for it.

#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

// Called once with a write's outcome: null when the response is stored; otherwise the error
// (an ApiError when it is the caller's to show), and nothing is stored.
using WriteDone = std::function<void(std::exception_ptr)>;

class ResponseWriter {
 public:
  virtual ~ResponseWriter() = default;
  // Stores `response`, then calls `done`: at once on the caller's thread, or later on another.
  virtual void write(NewResponse response, WriteDone done) = 0;
};

// Writes `batch` with `store` and `counts`; each entry's error (none when stored) in
// `errors`, in order. Responses of a link whose count cannot be begun are refused alone.
// When the connection is lost the outcome of the commit is unknown: the links are left
// pending.
void writeBatch(ResponsesStore& store, LinkCounts& counts,
                const std::vector<const NewResponse*>& batch,
                std::vector<std::exception_ptr>& errors);

// True for an error after which a commit may or may not have happened (the connection was
// lost); the connection must then be opened again.
bool isLostConnection(const std::exception_ptr& error);

// One response at a time on the caller's store (tests, tools).
class DirectResponseWriter final : public ResponseWriter {
 public:
  DirectResponseWriter(ResponsesStore& store, LinkCounts& counts)
      : store_(store), counts_(counts) {}
  void write(NewResponse response, WriteDone done) override;
  // Throws the write's error.
  void writeNow(NewResponse response);

 private:
  ResponsesStore& store_;
  LinkCounts& counts_;
};

// Queues writes and stores them in batches on connections of its own (`connections` of them
// write at once): while a batch commits, the next gathers. More than `max_queued` waiting
// writes are refused at once (503) rather than held for ever longer.
class BatchingResponseWriter final : public ResponseWriter {
 public:
  // Counts batches and responses written in `counters`.
  BatchingResponseWriter(const std::string& database_url, LinkCounts& counts, Counters& counters,
                         int connections, std::size_t max_queued = 4096,
                         std::size_t max_batch = 64);
  ~BatchingResponseWriter() override;
  void write(NewResponse response, WriteDone done) override;
  void stop();

 private:
  struct Pending {
    NewResponse response;
    WriteDone done;
  };
  void drain(PgSession& session);

  LinkCounts& counts_;
  Counters& counters_;
  const std::size_t max_queued_;
  const std::size_t max_batch_;
  std::mutex mutex_;
  std::deque<std::unique_ptr<Pending>> queue_;
  int draining_ = 0;  // batches being written
  const int connections_;
  PgPool writers_;
};

}  // namespace feedback::responses
