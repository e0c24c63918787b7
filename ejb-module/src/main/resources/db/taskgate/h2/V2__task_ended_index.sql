-- Taskgate schema version 2: an index on the ended tasks by status and end time, for retention
-- (deleting the tasks that ended longer ago than their status's retention) and the bulk actions on
-- ended tasks.
CREATE INDEX taskgate_task_ended ON taskgate_task (status, updated_at, id);
