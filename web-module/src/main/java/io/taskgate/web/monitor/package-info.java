/**
 * Operations' view of a running Taskgate: MicroProfile Metrics (served by Payara at {@code
 * /metrics}, Prometheus format, rate-limit keys hashed by default), the keys behind the per-key
 * metrics at {@code /api/metrics/keys}, and MicroProfile Health readiness (at {@code
 * /health/ready}). Reads the engine through its facades and events only. May depend on {@code
 * io.taskgate.engine} and the Jakarta EE and MicroProfile APIs.
 */
package io.taskgate.web.monitor;
