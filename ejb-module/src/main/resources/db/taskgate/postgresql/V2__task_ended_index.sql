-- Taskgate schema version 2: an index on the ended tasks by status and end time, for retention
-- (deleting the tasks that ended longer ago than their status's retention) and the bulk actions on
-- ended tasks. Built in the migration's transaction, which holds writes to taskgate_task while it
-- builds (about a second per million tasks). Not CONCURRENTLY: that waits for every transaction
-- older than it, an instance waiting for the schema lock included, which waits for this one. To
-- build it without holding writes, create it by hand first (the migration then finds it):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS taskgate_task_ended ON taskgate_task (status, updated_at, id);
CREATE INDEX IF NOT EXISTS taskgate_task_ended ON taskgate_task USING btree (status, updated_at, id);
