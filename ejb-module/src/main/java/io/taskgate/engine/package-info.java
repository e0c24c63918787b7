/**
 * Taskgate's engine, the adapters that put the pure core to work inside a Jakarta EE container.
 * This package holds only the bootstrap: {@link io.taskgate.engine.TaskEngine} (start, recovery,
 * sweep, stop) and the start signal ({@link io.taskgate.engine.ConsumerStart}, {@link
 * io.taskgate.engine.WebModuleStarted}). The work is in the subpackages: {@code time} (the clocks),
 * {@code handler} (discovery, registry, interceptor, invoker), {@code dispatch}, {@code queue},
 * {@code schedule} (the timeline), {@code run} (one attempt: claim, run, record), {@code throttle}
 * (the seam) and {@code throttle.gate} (the keyed rate-limit gate), {@code event}, {@code admin}
 * (the facades, all the web module may reach), {@code ratelimit} and {@code limiter} (limiter
 * hosting). May depend on the core, the API, the store and the Jakarta EE and MicroProfile APIs.
 */
package io.taskgate.engine;
