-- Claims and records find sends by id, through the primary key. With id as its last column this
-- index offered the planner a second way to find an id, walking the whole index, which costs
-- the same as a probe when statistics say the table is empty: taken after an autovacuum of an
-- empty queue, the claim then read every queued send (pg_dispatch_store.cc). Claims order a
-- webhook's sends by due_at alone (ties are rare, and their order is not promised).
-- Built before the old one goes: the build only holds writes back, and the DROP, which holds
-- reads back too, then takes a moment, at the end of the migration's transaction.
CREATE INDEX pending_by_webhook_due_new ON pending (webhook_uuid, due_at);
DROP INDEX pending_by_webhook_due;
ALTER INDEX pending_by_webhook_due_new RENAME TO pending_by_webhook_due;
