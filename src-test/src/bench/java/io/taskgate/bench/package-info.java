/**
 * Benchmarks, run by the {@code bench} profile and never by {@code mvn verify}: Taskgate's keyed
 * limiter against Bucket4j, Resilience4j and Guava (one limiter per key in a map), in one run.
 */
package io.taskgate.bench;
