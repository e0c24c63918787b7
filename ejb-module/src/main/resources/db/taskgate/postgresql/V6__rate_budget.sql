-- Taskgate schema version 6: each rate-limited key's budget as its starts left it (the theoretical
-- arrival time of its GCRA, epoch nanoseconds), saved at most once a second per key, so that a
-- restart goes on from it; and, per instance, up to when every start it made is saved.
CREATE TABLE IF NOT EXISTS taskgate_rate_budget (
    id character varying(64) NOT NULL,
    rate_key character varying(1024) NOT NULL,
    saved_at timestamp(6) with time zone,
    scope character varying(255) NOT NULL,
    tat_nanos bigint NOT NULL,
    CONSTRAINT taskgate_rate_budget_pkey PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS taskgate_rate_budget_tat ON taskgate_rate_budget USING btree (tat_nanos);
CREATE TABLE IF NOT EXISTS taskgate_budget_mark (
    instance_id character varying(64) NOT NULL,
    saved_at timestamp(6) with time zone,
    CONSTRAINT taskgate_budget_mark_pkey PRIMARY KEY (instance_id)
);
