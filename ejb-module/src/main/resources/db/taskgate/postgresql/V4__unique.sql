-- Taskgate schema version 4: the unique keys of unique tasks, each with the task it belongs to (or
-- last belonged to); a unique dispatch locks its key's row while it looks at that task.
CREATE TABLE IF NOT EXISTS taskgate_unique (
    id character varying(511) NOT NULL,
    claimed_at timestamp(6) with time zone,
    task_id character varying(36) NOT NULL,
    type character varying(255) NOT NULL,
    unique_key character varying(255) NOT NULL,
    CONSTRAINT taskgate_unique_pkey PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS taskgate_unique_task ON taskgate_unique USING btree (task_id);
