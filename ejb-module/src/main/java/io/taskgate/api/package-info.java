/**
 * What applications write against: tasks (records implementing {@link io.taskgate.api.Task}),
 * handlers (CDI beans marked {@link io.taskgate.api.TaskHandler}), the {@link
 * io.taskgate.api.TaskDispatcher}, and the values they exchange. Depends on the Jakarta EE API
 * only.
 */
package io.taskgate.api;
