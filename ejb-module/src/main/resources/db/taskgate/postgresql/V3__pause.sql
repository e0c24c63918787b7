-- Taskgate schema version 3: the pauses in force (a queue, a task type or a rate-limit key whose
-- tasks stay queued until it is resumed), one row each, read by every instance.
CREATE TABLE IF NOT EXISTS taskgate_pause (
    id character varying(1032) NOT NULL,
    name character varying(1024) NOT NULL,
    paused_at timestamp(6) with time zone,
    paused_by character varying(128) NOT NULL,
    reason character varying(500),
    scope character varying(8) NOT NULL,
    CONSTRAINT taskgate_pause_pkey PRIMARY KEY (id)
);
