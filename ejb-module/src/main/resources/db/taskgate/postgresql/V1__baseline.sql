-- Taskgate's schema, version 1, on PostgreSQL: the tables, keys and indexes that EclipseLink's
-- create-or-extend-tables made from Taskgate 0.1's entities (captured with pg_dump from a
-- deployment on Payara Micro 6.2025.10 with PostgreSQL 15).

CREATE TABLE taskgate_instance (
    id character varying(64) NOT NULL,
    grid_member character varying(64),
    host character varying(255) NOT NULL,
    last_beat timestamp(6) with time zone,
    parked text,
    started_at timestamp(6) with time zone,
    version character varying(64) NOT NULL
);

CREATE TABLE taskgate_minute_count (
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
    type character varying(255) NOT NULL
);

CREATE TABLE taskgate_rate_override (
    id character varying(600) NOT NULL,
    burst integer NOT NULL,
    rate_key character varying(300),
    period_nanos bigint NOT NULL,
    permits integer NOT NULL,
    task_type character varying(255) NOT NULL,
    updated_at timestamp(6) with time zone
);

CREATE TABLE taskgate_task (
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
    version bigint NOT NULL
);

CREATE TABLE taskgate_task_audit (
    id character varying(36) NOT NULL,
    at timestamp(6) with time zone,
    attempt integer NOT NULL,
    detail character varying(2000),
    from_status character varying(16),
    task_id character varying(36) NOT NULL,
    task_version bigint NOT NULL,
    to_status character varying(16) NOT NULL
);

CREATE TABLE taskgate_throttler (
    name character varying(128) NOT NULL,
    buckets integer NOT NULL,
    capacity integer NOT NULL,
    interval_ms bigint NOT NULL,
    kind character varying(32) NOT NULL,
    limit_value integer NOT NULL,
    max_limit integer NOT NULL,
    min_limit integer NOT NULL,
    resource_id character varying(100) NOT NULL,
    updated_at timestamp(6) with time zone
);

CREATE TABLE taskgate_throttler_change (
    id character varying(36) NOT NULL,
    after_value character varying(255),
    changed_at timestamp(6) with time zone,
    before_value character varying(255),
    changed_by character varying(128) NOT NULL,
    kind character varying(32) NOT NULL,
    resource_id character varying(100) NOT NULL
);

CREATE TABLE taskgate_window_count (
    id character varying(255) NOT NULL,
    bucket_start bigint NOT NULL,
    resource character varying(128) NOT NULL,
    starts integer NOT NULL,
    sub_window character varying(100)
);

ALTER TABLE taskgate_instance
    ADD CONSTRAINT taskgate_instance_pkey PRIMARY KEY (id);

ALTER TABLE taskgate_minute_count
    ADD CONSTRAINT taskgate_minute_count_pkey PRIMARY KEY (id);

ALTER TABLE taskgate_rate_override
    ADD CONSTRAINT taskgate_rate_override_pkey PRIMARY KEY (id);

ALTER TABLE taskgate_task_audit
    ADD CONSTRAINT taskgate_task_audit_pkey PRIMARY KEY (id);

ALTER TABLE taskgate_task
    ADD CONSTRAINT taskgate_task_pkey PRIMARY KEY (id);

ALTER TABLE taskgate_throttler_change
    ADD CONSTRAINT taskgate_throttler_change_pkey PRIMARY KEY (id);

ALTER TABLE taskgate_throttler
    ADD CONSTRAINT taskgate_throttler_pkey PRIMARY KEY (name);

ALTER TABLE taskgate_window_count
    ADD CONSTRAINT taskgate_window_count_pkey PRIMARY KEY (id);

CREATE INDEX taskgate_minute_count_minute ON taskgate_minute_count USING btree (epoch_minute);

CREATE INDEX taskgate_task_audit_task ON taskgate_task_audit USING btree (task_id, task_version);

CREATE INDEX taskgate_task_created ON taskgate_task USING btree (created_at DESC, id DESC);

CREATE INDEX taskgate_task_due ON taskgate_task USING btree (status, scheduled_at, id);

CREATE INDEX taskgate_task_owner ON taskgate_task USING btree (owner_instance, status);

CREATE INDEX taskgate_task_rate_key ON taskgate_task USING btree (rate_key, type);

CREATE INDEX taskgate_task_type_key ON taskgate_task USING btree (type, task_key);

CREATE INDEX taskgate_throttler_change_at ON taskgate_throttler_change USING btree (changed_at);

CREATE INDEX taskgate_window_count_bucket ON taskgate_window_count USING btree (bucket_start);
