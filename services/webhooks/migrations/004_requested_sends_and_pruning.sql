-- A send someone asked for (a redelivery or a test event) is made even to a disabled webhook,
-- which has no other way to be tried; the automatic sends of a disabled webhook are dropped.
ALTER TABLE pending ADD COLUMN requested boolean NOT NULL DEFAULT false;
UPDATE pending p SET requested = true FROM events e
WHERE e.event_id = p.event_id AND (p.redelivery OR e.test);
DELETE FROM pending p USING webhooks w
WHERE w.uuid = p.webhook_uuid AND NOT w.enabled AND NOT p.requested;

-- Pruning takes the oldest deliveries and events first, a batch at a time.
CREATE INDEX deliveries_by_age ON deliveries (date_created);
CREATE INDEX events_by_age ON events (created_at);
