-- Claims and records find sends by id, through the primary key. With id as its last column this
-- index offered the planner a second way to find an id, walking the whole index, which costs
-- the same as a probe when statistics say the table is empty: taken after an autovacuum of an
-- empty queue, the claim then read every queued send (pg_dispatch_store.cc). Claims order a
-- webhook's sends by due_at alone (ties are rare, and their order is not promised).
DROP INDEX pending_by_webhook_due;
CREATE INDEX pending_by_webhook_due ON pending (webhook_uuid, due_at);
