/**
 * Example tasks and handlers, on by default and switched off with MicroProfile Config {@code
 * taskgate.examples.enabled=false} ({@link io.taskgate.web.ExamplesSwitch} then vetoes every bean
 * of this package): a tenant sync against a rate-limited API, a report that fails twice, a
 * recurring heartbeat. Depends on {@code io.taskgate.api}, the core limiters and Bean Validation
 * (the tasks' constraints).
 */
package io.taskgate.web.examples;
