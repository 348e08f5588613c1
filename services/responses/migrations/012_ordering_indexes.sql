-- migration: outside a transaction
-- Lists ordered by respondent_email read a page from these indexes instead of sorting every
-- response of the link (or workspace) first: 0.8 s for the first page of a link of a million.
-- A page at an offset reads the keys it skips from the index alone (uuid, sort_at and, here,
-- respondent_email are in it), and only its own rows from the table. Lists of every status
-- (status=all) merge the two statuses' ranges of these and of responses_by_link and
-- responses_by_workspace, in order (response_queries.cc). Built CONCURRENTLY: writes go on
-- meanwhile (common/pg/migrations.h).
DROP INDEX CONCURRENTLY IF EXISTS responses_by_link_email;
CREATE INDEX CONCURRENTLY responses_by_link_email
  ON responses (workspace_uuid, link_uuid, status, respondent_email, sort_at, uuid);
DROP INDEX CONCURRENTLY IF EXISTS responses_by_workspace_email;
CREATE INDEX CONCURRENTLY responses_by_workspace_email
  ON responses (workspace_uuid, status, respondent_email, sort_at, uuid);
