-- Taskgate schema version 6: each rate-limited key's budget as its starts left it (the theoretical
-- arrival time of its GCRA, epoch nanoseconds), saved at most once a second per key, so that a
-- restart goes on from it; and, per instance, up to when every start it made is saved.
CREATE TABLE "TASKGATE_RATE_BUDGET"(
    "ID" CHARACTER VARYING(64) NOT NULL,
    "RATE_KEY" CHARACTER VARYING(1024) NOT NULL,
    "SAVED_AT" TIMESTAMP(6) WITH TIME ZONE,
    "SCOPE" CHARACTER VARYING(255) NOT NULL,
    "TAT_NANOS" BIGINT NOT NULL
);
ALTER TABLE "TASKGATE_RATE_BUDGET" ADD PRIMARY KEY("ID");
CREATE INDEX "TASKGATE_RATE_BUDGET_TAT" ON "TASKGATE_RATE_BUDGET"("TAT_NANOS" NULLS FIRST);
CREATE TABLE "TASKGATE_BUDGET_MARK"(
    "INSTANCE_ID" CHARACTER VARYING(64) NOT NULL,
    "SAVED_AT" TIMESTAMP(6) WITH TIME ZONE
);
ALTER TABLE "TASKGATE_BUDGET_MARK" ADD PRIMARY KEY("INSTANCE_ID");
