/**
 * State kept in Payara's data grid (its Hazelcast) so that several instances share it: the keyed
 * rate limiter with one budget per key across the cluster, and its fallback while the grid does not
 * answer.
 */
package io.taskgate.engine.cluster.grid;
