-- Taskgate schema version 4: the unique keys of unique tasks, each with the task it belongs to (or
-- last belonged to); a unique dispatch locks its key's row while it looks at that task.
CREATE TABLE "TASKGATE_UNIQUE"(
    "ID" CHARACTER VARYING(511) NOT NULL,
    "CLAIMED_AT" TIMESTAMP(6) WITH TIME ZONE,
    "TASK_ID" CHARACTER VARYING(36) NOT NULL,
    "TYPE" CHARACTER VARYING(255) NOT NULL,
    "UNIQUE_KEY" CHARACTER VARYING(255) NOT NULL
);
ALTER TABLE "TASKGATE_UNIQUE" ADD PRIMARY KEY("ID");
CREATE INDEX "TASKGATE_UNIQUE_TASK" ON "TASKGATE_UNIQUE"("TASK_ID" NULLS FIRST);
