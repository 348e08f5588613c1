-- Erasure of respondents' data (docs/api.md "Erasure and retention"). Each kept event names its
-- response, so that the responses service's erasure finds them; the payload of an erased
-- response's event is dropped (NULL) while its deliveries stay listed.
ALTER TABLE events ADD COLUMN response_uuid uuid;
ALTER TABLE events ALTER COLUMN payload DROP NOT NULL;
-- Events kept before this migration: their response is in their payload (test events have
-- none of a real response).
UPDATE events SET response_uuid = (payload::jsonb #>> '{data,response,uuid}')::uuid
WHERE NOT test AND payload::jsonb #>> '{data,response,uuid}' IS NOT NULL;
-- Not partial: the function's `response_uuid = ANY (array)` proves no IS NOT NULL to the planner.
CREATE INDEX events_of_response ON events (response_uuid);

-- Called by the responses service in the transaction that erases the responses, after it took
-- their events out of the outbox: this service's part of an erasure, defined here with the
-- tables it touches. The payloads go first: a redelivery being queued meanwhile holds its event
-- (webhooks_queue_event locks it FOR SHARE) and is waited for, and one queued later finds no
-- payload and queues nothing. Then every send not yet made is cancelled. A send already claimed
-- by a dispatcher has its payload in that dispatcher's memory: its id is notified on
-- webhooks_erased, and the dispatcher drops it unless it is already on the wire (docs/api.md).
-- What receivers answered to erased events goes too: a receiver may echo what it was sent.
CREATE FUNCTION webhooks.erase_response_events(erased_responses uuid[]) RETURNS integer
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
