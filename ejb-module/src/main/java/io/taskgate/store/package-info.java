/**
 * The task store: the few operations the engine needs on stored tasks ({@link
 * io.taskgate.store.TaskStore}) and the values they exchange. Implementations live below it ({@code
 * jpa}). Depends on the core and the JDK only.
 */
package io.taskgate.store;
