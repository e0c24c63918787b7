-- Brings a PostgreSQL database that an earlier Taskgate made with EclipseLink's
-- create-or-extend-tables (no schema history) to version 1, before it is baselined there: the
-- tables and nullable columns it may lack are added, and every index of version 1 is made anew
-- (an earlier build may have made one on other columns). Safe to run again. Not a migration:
-- Taskgate runs it itself (taskgate.schema.migrate=auto) on such a database only.

CREATE TABLE IF NOT EXISTS taskgate_instance (
    id character varying(64) NOT NULL,
    grid_member character varying(64),
    host character varying(255) NOT NULL,
    last_beat timestamp(6) with time zone,
    parked text,
    started_at timestamp(6) with time zone,
    version character varying(64) NOT NULL,
    CONSTRAINT taskgate_instance_pkey PRIMARY KEY (id)
);
ALTER TABLE taskgate_instance ADD COLUMN IF NOT EXISTS grid_member character varying(64);
ALTER TABLE taskgate_instance ADD COLUMN IF NOT EXISTS last_beat timestamp(6) with time zone;
ALTER TABLE taskgate_instance ADD COLUMN IF NOT EXISTS parked text;
ALTER TABLE taskgate_instance ADD COLUMN IF NOT EXISTS started_at timestamp(6) with time zone;

CREATE TABLE IF NOT EXISTS taskgate_minute_count (
    id character varying(700) NOT NULL,
    calls_granted bigint NOT NULL,
    calls_refused bigint NOT NULL,
    calls_waited bigint NOT NULL,
    completed bigint NOT NULL,
    epoch_minute bigint NOT NULL,
    failed bigint NOT NULL,
    failed_open bigint NOT NULL,
    instance character varying(64) NOT NULL,
    parked bigint NOT NULL,
    queue character varying(255) NOT NULL,
    rejected_horizon bigint NOT NULL,
    rejected_discarded bigint NOT NULL,
    started bigint NOT NULL,
    throttle_dropped bigint NOT NULL,
    throttle_waited bigint NOT NULL,
    type character varying(255) NOT NULL,
    CONSTRAINT taskgate_minute_count_pkey PRIMARY KEY (id)
);

CREATE TABLE IF NOT EXISTS taskgate_rate_override (
    id character varying(600) NOT NULL,
    burst integer NOT NULL,
    rate_key character varying(300),
    period_nanos bigint NOT NULL,
    permits integer NOT NULL,
    task_type character varying(255) NOT NULL,
    updated_at timestamp(6) with time zone,
    CONSTRAINT taskgate_rate_override_pkey PRIMARY KEY (id)
);
ALTER TABLE taskgate_rate_override ADD COLUMN IF NOT EXISTS rate_key character varying(300);
ALTER TABLE taskgate_rate_override ADD COLUMN IF NOT EXISTS updated_at timestamp(6) with time zone;

CREATE TABLE IF NOT EXISTS taskgate_task (
    id character varying(36) NOT NULL,
    attempt integer NOT NULL,
    created_at timestamp(6) with time zone,
    last_error character varying(2000),
    owner_instance character varying(64),
    payload text NOT NULL,
    queue character varying(255) NOT NULL,
    rate_key character varying(1024),
    recurrence character varying(1000),
    runs bigint NOT NULL,
    scheduled_at timestamp(6) with time zone,
    status character varying(16) NOT NULL,
    task_key character varying(255),
    type character varying(255) NOT NULL,
    updated_at timestamp(6) with time zone,
    version bigint NOT NULL,
    CONSTRAINT taskgate_task_pkey PRIMARY KEY (id)
);
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS created_at timestamp(6) with time zone;
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS last_error character varying(2000);
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS owner_instance character varying(64);
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS rate_key character varying(1024);
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS recurrence character varying(1000);
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS scheduled_at timestamp(6) with time zone;
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS task_key character varying(255);
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS updated_at timestamp(6) with time zone;

CREATE TABLE IF NOT EXISTS taskgate_task_audit (
    id character varying(36) NOT NULL,
    at timestamp(6) with time zone,
    attempt integer NOT NULL,
    detail character varying(2000),
    from_status character varying(16),
    task_id character varying(36) NOT NULL,
    task_version bigint NOT NULL,
    to_status character varying(16) NOT NULL,
    CONSTRAINT taskgate_task_audit_pkey PRIMARY KEY (id)
);
ALTER TABLE taskgate_task_audit ADD COLUMN IF NOT EXISTS at timestamp(6) with time zone;
ALTER TABLE taskgate_task_audit ADD COLUMN IF NOT EXISTS detail character varying(2000);
ALTER TABLE taskgate_task_audit ADD COLUMN IF NOT EXISTS from_status character varying(16);

CREATE TABLE IF NOT EXISTS taskgate_throttler (
    name character varying(128) NOT NULL,
    buckets integer NOT NULL,
    capacity integer NOT NULL,
    interval_ms bigint NOT NULL,
    kind character varying(32) NOT NULL,
    limit_value integer NOT NULL,
    max_limit integer NOT NULL,
    min_limit integer NOT NULL,
    resource_id character varying(100) NOT NULL,
    updated_at timestamp(6) with time zone,
    CONSTRAINT taskgate_throttler_pkey PRIMARY KEY (name)
);
ALTER TABLE taskgate_throttler ADD COLUMN IF NOT EXISTS updated_at timestamp(6) with time zone;

CREATE TABLE IF NOT EXISTS taskgate_throttler_change (
    id character varying(36) NOT NULL,
    after_value character varying(255),
    changed_at timestamp(6) with time zone,
    before_value character varying(255),
    changed_by character varying(128) NOT NULL,
    kind character varying(32) NOT NULL,
    resource_id character varying(100) NOT NULL,
    CONSTRAINT taskgate_throttler_change_pkey PRIMARY KEY (id)
);
ALTER TABLE taskgate_throttler_change ADD COLUMN IF NOT EXISTS after_value character varying(255);
ALTER TABLE taskgate_throttler_change ADD COLUMN IF NOT EXISTS changed_at timestamp(6) with time zone;
ALTER TABLE taskgate_throttler_change ADD COLUMN IF NOT EXISTS before_value character varying(255);

CREATE TABLE IF NOT EXISTS taskgate_window_count (
    id character varying(255) NOT NULL,
    bucket_start bigint NOT NULL,
    resource character varying(128) NOT NULL,
    starts integer NOT NULL,
    sub_window character varying(100),
    CONSTRAINT taskgate_window_count_pkey PRIMARY KEY (id)
);
ALTER TABLE taskgate_window_count ADD COLUMN IF NOT EXISTS sub_window character varying(100);

-- the due index of builds before it had the id: (status, scheduled_at)
DROP INDEX IF EXISTS taskgate_task_status_due;
DROP INDEX IF EXISTS taskgate_minute_count_minute;
CREATE INDEX taskgate_minute_count_minute ON taskgate_minute_count USING btree (epoch_minute);
DROP INDEX IF EXISTS taskgate_task_audit_task;
CREATE INDEX taskgate_task_audit_task ON taskgate_task_audit USING btree (task_id, task_version);
DROP INDEX IF EXISTS taskgate_task_created;
CREATE INDEX taskgate_task_created ON taskgate_task USING btree (created_at DESC, id DESC);
DROP INDEX IF EXISTS taskgate_task_due;
CREATE INDEX taskgate_task_due ON taskgate_task USING btree (status, scheduled_at, id);
DROP INDEX IF EXISTS taskgate_task_owner;
CREATE INDEX taskgate_task_owner ON taskgate_task USING btree (owner_instance, status);
DROP INDEX IF EXISTS taskgate_task_rate_key;
CREATE INDEX taskgate_task_rate_key ON taskgate_task USING btree (rate_key, type);
DROP INDEX IF EXISTS taskgate_task_type_key;
CREATE INDEX taskgate_task_type_key ON taskgate_task USING btree (type, task_key);
DROP INDEX IF EXISTS taskgate_throttler_change_at;
CREATE INDEX taskgate_throttler_change_at ON taskgate_throttler_change USING btree (changed_at);
DROP INDEX IF EXISTS taskgate_window_count_bucket;
CREATE INDEX taskgate_window_count_bucket ON taskgate_window_count USING btree (bucket_start);
