CREATE TABLE webhooks (
  uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  -- The link of an automatic on_finished webhook; NULL for a workspace-wide webhook.
  link_uuid uuid,
  url text NOT NULL,
  events text[] NOT NULL,
  enabled boolean NOT NULL,
  -- AES-256-GCM (common/core/secret_box.h): signing needs the secret, so it is sealed, not hashed.
  secret_sealed text NOT NULL,
  -- Why the dispatcher disabled it (a 410 Gone), for the logs and operators.
  disabled_reason text,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp(),
  date_updated timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX webhooks_by_workspace ON webhooks (workspace_uuid, date_created, uuid);
CREATE UNIQUE INDEX webhooks_of_link ON webhooks (link_uuid) WHERE link_uuid IS NOT NULL;

-- Events taken from the responses outbox that at least one webhook wanted, kept for
-- retries, redeliveries and the deliveries listing.
CREATE TABLE events (
  event_id uuid PRIMARY KEY,
  type text NOT NULL,
  workspace_uuid uuid NOT NULL,
  link_uuid uuid,
  payload text COMPRESSION lz4 NOT NULL,
  test boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- One row per event still to be sent to one webhook. A dispatcher that claims a row moves
-- due_at past its attempt's deadline (a lease): if it dies mid-send, the row comes due again
-- and another dispatcher sends it, with the same webhook-id.
CREATE TABLE pending (
  id bigserial PRIMARY KEY,
  webhook_uuid uuid NOT NULL REFERENCES webhooks (uuid) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES events (event_id),
  -- Attempts made so far.
  attempts integer NOT NULL DEFAULT 0,
  redelivery boolean NOT NULL DEFAULT false,
  due_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX pending_by_due ON pending (due_at, id);
-- For ON DELETE CASCADE from webhooks and for pruning events.
CREATE INDEX pending_by_webhook ON pending (webhook_uuid);
CREATE INDEX pending_by_event ON pending (event_id);

-- Every attempt, as GET .../deliveries/ lists them.
CREATE TABLE deliveries (
  uuid uuid PRIMARY KEY,
  webhook_uuid uuid NOT NULL REFERENCES webhooks (uuid) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES events (event_id),
  attempt integer NOT NULL,
  redelivery boolean NOT NULL,
  succeeded boolean NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  response_body text,
  next_attempt_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX deliveries_of_webhook ON deliveries (webhook_uuid, date_created DESC, uuid);
CREATE INDEX deliveries_by_event ON deliveries (event_id);
