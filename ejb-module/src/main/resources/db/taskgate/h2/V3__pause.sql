-- Taskgate schema version 3: the pauses in force (a queue, a task type or a rate-limit key whose
-- tasks stay queued until it is resumed), one row each, read by every instance.
CREATE TABLE "TASKGATE_PAUSE"(
    "ID" CHARACTER VARYING(1032) NOT NULL,
    "NAME" CHARACTER VARYING(1024) NOT NULL,
    "PAUSED_AT" TIMESTAMP(6) WITH TIME ZONE,
    "PAUSED_BY" CHARACTER VARYING(128) NOT NULL,
    "REASON" CHARACTER VARYING(500),
    "SCOPE" CHARACTER VARYING(8) NOT NULL
);
ALTER TABLE "TASKGATE_PAUSE" ADD PRIMARY KEY("ID");
