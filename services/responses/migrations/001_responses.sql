-- Trigram indexes make `search` (a case-insensitive substring) fast at millions of responses;
-- btree_gin lets the same index narrow the search to one workspace or link.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

CREATE TABLE responses (
  uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  -- Not a reference: responses outlive their link.
  link_uuid uuid NOT NULL,
  session_id text NOT NULL,
  -- SHA-256 hex of the response token; the token itself is never stored.
  token_hash text NOT NULL,
  status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
  respondent_email text,
  -- The answers as the API shows them, a JSON array kept as text so that values come back
  -- exactly as given (U+0000 included). lz4: pglz costs more CPU than the rest of a write.
  answers text COMPRESSION lz4 NOT NULL,
  -- The email, every text answer and every transcription: what `search` looks in.
  search_text text NOT NULL,
  started_at timestamptz NOT NULL,
  submitted_at timestamptz,
  -- submitted_at, or started_at while in progress: what lists sort by and since/until bound.
  sort_at timestamptz NOT NULL
);

CREATE INDEX responses_by_link ON responses (workspace_uuid, link_uuid, status, sort_at, uuid);
CREATE INDEX responses_by_workspace ON responses (workspace_uuid, status, sort_at, uuid);
-- A word rare in one link may be common in another workspace: the search index holds the
-- workspace and the link beside the trigrams, so that only the rows asked about are read.
CREATE INDEX responses_search ON responses
  USING gin (workspace_uuid, link_uuid, search_text public.gin_trgm_ops);

-- Started and completed responses per link, split over a few rows per link so that
-- concurrent submissions into one link do not queue on one row lock; a count is the sum of
-- a link's rows.
CREATE TABLE link_counts (
  link_uuid uuid NOT NULL,
  shard smallint NOT NULL,
  workspace_uuid uuid NOT NULL,
  started bigint NOT NULL,
  completed bigint NOT NULL,
  PRIMARY KEY (link_uuid, shard)
);

CREATE INDEX link_counts_by_workspace ON link_counts (workspace_uuid);

-- The transactional outbox: each event is written with the change it reports and delivered
-- by the webhooks dispatcher, which claims rows in id order.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL,
  type text NOT NULL,
  workspace_uuid uuid NOT NULL,
  link_uuid uuid NOT NULL,
  response_uuid uuid NOT NULL,
  payload text COMPRESSION lz4 NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
