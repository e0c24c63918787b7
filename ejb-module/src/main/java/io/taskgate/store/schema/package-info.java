/**
 * Taskgate's versioned schema: the Flyway migrations in {@code db/taskgate/<database>} applied (or
 * only checked) when the store is first used, in a history table of Taskgate's own ({@value
 * io.taskgate.store.schema.SchemaMigrator#HISTORY}), and the shape of each version's tables, by
 * which a database that no history describes is recognised. Plain JDBC and Flyway: no container.
 */
package io.taskgate.store.schema;
