-- Taskgate schema version 5: the trace context of the code that dispatched a task (a W3C
-- traceparent, null when tracing was off), so that its attempts are spans in that trace.
ALTER TABLE taskgate_task ADD COLUMN IF NOT EXISTS trace_parent character varying(128);
