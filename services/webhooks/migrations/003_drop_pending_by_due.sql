-- Every read of pending now goes webhook by webhook (pending_by_webhook_due): an index on
-- due_at alone tempted the planner to walk every due send, a slow receiver's backlog
-- included, to find one webhook's.
DROP INDEX pending_by_due;
