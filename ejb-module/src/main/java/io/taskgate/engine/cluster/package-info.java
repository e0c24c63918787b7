/**
 * The engine instances that share one database: this instance's identity ({@link
 * io.taskgate.engine.cluster.InstanceIdentity}), its heartbeat row and the view of its peers
 * ({@link io.taskgate.engine.cluster.Instances}), from the settings of {@link
 * io.taskgate.engine.cluster.ClusterSettings}. An instance whose last beat is older than the
 * instance timeout is dead. Depends on the store, the engine's time, the Jakarta EE and
 * MicroProfile APIs and the JDK.
 */
package io.taskgate.engine.cluster;
