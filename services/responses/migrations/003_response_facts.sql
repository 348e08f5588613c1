-- What a link's summary reads of each completed response (services/responses/summary_facts.h):
-- a few bytes per response instead of its answers. Written with the response's completion.
CREATE TABLE response_facts (
  response_uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  link_uuid uuid NOT NULL,
  submitted_at timestamptz NOT NULL,
  facts text NOT NULL
);

-- A summary reads a link's facts in this order, a batch at a time.
CREATE INDEX response_facts_by_link ON response_facts (link_uuid, submitted_at, response_uuid);

-- Work a service does once for data from before a migration (responses completed before
-- response_facts existed get theirs at start-up); `done` once it is finished.
CREATE TABLE backfills (
  name text PRIMARY KEY,
  done boolean NOT NULL
);

INSERT INTO backfills (name, done)
SELECT 'response_facts', NOT EXISTS (SELECT 1 FROM responses WHERE status = 'completed');
