/**
 * Handlers: discovered at deployment by {@link io.taskgate.engine.handler.TaskgateExtension} (their
 * options checked, the deployment failed naming the handler, option and value on any problem), held
 * by {@link io.taskgate.engine.handler.HandlerRegistry}, timed and bounded by {@link
 * io.taskgate.engine.handler.TaskHandlerInterceptor}, created and called by {@link
 * io.taskgate.engine.handler.HandlerInvoker}. Depends on the API, the core and the engine's clocks;
 * nothing of the engine's other packages.
 */
package io.taskgate.engine.handler;
