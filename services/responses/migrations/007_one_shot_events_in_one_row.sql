-- A response completed in one call writes one outbox row for its two events (response.started
-- and response.submitted describe the same record): the row is its response.submitted event,
-- started_event_id the id of its response.started, which comes first and whose payload is the
-- row's with the type swapped (kSubmittedPayloadPrefix, common/webhooks/webhook_rules.h).
-- Half the rows to write, and to fan out.
--
-- The table takes a new name and `outbox` becomes a view of the rows that hold one event, as
-- the previous version wrote them: its dispatchers, still running during a rollout, take only
-- rows they read whole (a one-shot row taken by one of them would lose its second event), and
-- its responses services write through the view. A later release drops the view.
ALTER TABLE outbox RENAME TO outbox_events;
ALTER TABLE outbox_events ADD COLUMN started_event_id uuid;
CREATE VIEW outbox AS
  SELECT id, event_id, type, workspace_uuid, link_uuid, response_uuid, payload, created_at
  FROM outbox_events WHERE started_event_id IS NULL;
