-- migration: outside a transaction
-- Erasure (services/responses/erasure/): a batch finds what belongs to its responses through
-- these, one probe per response, whatever the tables hold. The outbox's is the one an insert
-- pays for on the hot path (a few microseconds of a submission's); without it an erasure
-- during a backlog (webhooks down for hours) would read the whole outbox for every batch.
DROP INDEX CONCURRENTLY IF EXISTS responses.outbox_events_of_response;
CREATE INDEX CONCURRENTLY outbox_events_of_response ON outbox_events (response_uuid);
DROP INDEX CONCURRENTLY IF EXISTS responses.blobs_of_response;
CREATE INDEX CONCURRENTLY blobs_of_response ON blobs (response_uuid);
DROP INDEX CONCURRENTLY IF EXISTS responses.insight_jobs_of_response;
CREATE INDEX CONCURRENTLY insight_jobs_of_response ON insight_jobs (response_uuid);
-- A respondent's erasure compares emails case-insensitively, across the workspace's links
-- (deleted ones included): the emails as lower() folds them. Anonymous responses stay out.
DROP INDEX CONCURRENTLY IF EXISTS responses.responses_by_folded_email;
CREATE INDEX CONCURRENTLY responses_by_folded_email
  ON responses (workspace_uuid, lower(respondent_email)) WHERE respondent_email IS NOT NULL;
