/**
 * Taskgate's engine, the adapters that put the pure core to work inside a Jakarta EE container.
 * This package holds only the bootstrap: {@link io.taskgate.engine.TaskEngine} (start, when to
 * recover and sweep, stop) and the start signal ({@link io.taskgate.engine.ConsumerStart}, {@link
 * io.taskgate.engine.WebModuleStarted}). The work is in the subpackages: {@code time} (the clocks),
 * {@code handler} (discovery, registry, interceptor, invoker), {@code dispatch}, {@code queue},
 * {@code schedule} (the timeline, recovery and the sweep's reads), {@code run} (one attempt: claim,
 * run, record), {@code throttle} (the door to every throttle) with its kinds {@code
 * throttle.ratelimit} (the keyed rate-limit gate) and {@code throttle.jobs} (mutexes, semaphores,
 * windows), {@code budget} (the keyed limiter's host and the run-time policies), {@code cluster}
 * (the instances sharing the database), {@code event}, {@code admin} (the facades, all the web
 * module may reach) and {@code limiter} (limits on any call). May depend on the core, the API, the
 * store and the Jakarta EE and MicroProfile APIs.
 */
package io.taskgate.engine;
