/**
 * The JPA implementation of the task store: its two entities, the store, and the transactors that
 * run its work resource-local (tests, benchmarks) or in the container's JTA transaction. Depends on
 * the store SPI, the core, Jakarta Persistence/CDI/Transactions and MicroProfile Config.
 */
package io.taskgate.store.jpa;
