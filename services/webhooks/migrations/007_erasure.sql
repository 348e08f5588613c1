-- migration: outside a transaction
-- Erasure of respondents' data (docs/api.md "Erasure and retention"). Each kept event names its
-- response, so that the responses service's erasure finds them; the payload of an erased
-- response's event is dropped (NULL) while its deliveries stay listed. Outside a transaction,
-- so that fan-out goes on while the events kept before are filled in and the index is built.
ALTER TABLE webhooks.events ADD COLUMN IF NOT EXISTS response_uuid uuid;
ALTER TABLE webhooks.events ALTER COLUMN payload DROP NOT NULL;
-- An event's response, from its payload, for whatever keeps it without naming it: a dispatcher
-- of the version before this one, during a rollout, and the events kept before (below). Test
-- events have no real response. A payload that is not as promised names none: it must not stop
-- the fan-out of every other event (nor this migration).
CREATE OR REPLACE FUNCTION webhooks.response_of_payload(payload text) RETURNS uuid
  LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN (payload::jsonb #>> '{data,response,uuid}')::uuid;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION webhooks.name_event_response() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.response_uuid := webhooks.response_of_payload(NEW.payload);
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS name_event_response ON webhooks.events;
CREATE TRIGGER name_event_response BEFORE INSERT ON webhooks.events
  FOR EACH ROW WHEN (NEW.response_uuid IS NULL AND NOT NEW.test AND NEW.payload IS NOT NULL)
  EXECUTE FUNCTION webhooks.name_event_response();
-- The events kept before, in batches of 10,000 committed one by one, in id order.
DO $$
DECLARE
  last uuid := '00000000-0000-0000-0000-000000000000';
  next uuid;
BEGIN
  LOOP
    SELECT batch.event_id INTO next FROM (SELECT event_id FROM webhooks.events
      WHERE event_id > last ORDER BY event_id LIMIT 10000) AS batch
      ORDER BY batch.event_id DESC LIMIT 1;
    EXIT WHEN next IS NULL;
    UPDATE webhooks.events SET response_uuid = webhooks.response_of_payload(payload)
      WHERE event_id > last AND event_id <= next AND response_uuid IS NULL AND NOT test
        AND payload IS NOT NULL;
    COMMIT;
    last := next;
  END LOOP;
END $$;
-- Not partial: the function's `response_uuid = ANY (array)` proves no IS NOT NULL to the planner.
DROP INDEX CONCURRENTLY IF EXISTS webhooks.events_of_response;
CREATE INDEX CONCURRENTLY events_of_response ON webhooks.events (response_uuid);
-- Called by the responses service in the transaction that erases the responses, after it took
-- their events out of the outbox: this service's part of an erasure, defined here with the
-- tables it touches. The payloads go first: a redelivery being queued meanwhile holds its event
-- (webhooks_queue_event locks it FOR SHARE) and is waited for, and one queued later finds no
-- payload and queues nothing; an attempt being recorded holds it too, and has its receiver's
-- answer cleared below. Then every send not yet made is cancelled. A send already claimed by a
-- dispatcher has its payload in that dispatcher's memory: its id is notified on
-- webhooks_erased, and the dispatcher drops it unless it is already on the wire (docs/api.md).
-- What receivers answered to erased events goes too: a receiver may echo what it was sent.
CREATE OR REPLACE FUNCTION webhooks.erase_response_events(erased_responses uuid[]) RETURNS integer
  LANGUAGE plpgsql AS $$
DECLARE
  erased_events uuid[];
  claimed bigint[];
  chunk bigint[];
BEGIN
  WITH blanked AS (
    UPDATE webhooks.events SET payload = NULL
    WHERE response_uuid = ANY (erased_responses) RETURNING event_id)
  SELECT array_agg(event_id) INTO erased_events FROM blanked;
  IF erased_events IS NULL THEN
    RETURN 0;
  END IF;
  UPDATE webhooks.deliveries SET response_body = NULL WHERE event_id = ANY (erased_events);
  WITH cancelled AS (
    DELETE FROM webhooks.pending WHERE event_id = ANY (erased_events) RETURNING id, due_at)
  SELECT array_agg(id) INTO claimed FROM cancelled WHERE due_at > clock_timestamp();
  -- A notification's payload holds at most 8000 bytes: 400 ids at a time.
  WHILE claimed IS NOT NULL AND cardinality(claimed) > 0 LOOP
    chunk := claimed[1:400];
    claimed := claimed[401:];
    PERFORM pg_notify('webhooks_erased', array_to_string(chunk, ','));
  END LOOP;
  RETURN cardinality(erased_events);
END $$;
