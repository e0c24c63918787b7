/**
 * The door to throttling: the rest of the engine (its root, {@code run}, {@code dispatch}, {@code
 * schedule}, {@code queue}) reaches every throttle through this package alone, never a throttle's
 * own subpackage (ArchitectureTest holds it).
 *
 * <p>{@link io.taskgate.engine.throttle.Throttles} builds each task type's chain from the kinds
 * registered as {@link io.taskgate.engine.throttle.ThrottleProvider} beans and routes to them what
 * concerns the tasks they keep waiting. A kind implements {@link
 * io.taskgate.engine.throttle.Throttle}: what it answers ({@link
 * io.taskgate.engine.throttle.ThrottleDecision}), what it holds ({@link
 * io.taskgate.engine.throttle.Permit}), its hooks around a run (a start checked at the last moment,
 * {@link io.taskgate.engine.throttle.StartCheck}; a claim ahead of a slot; an upstream's
 * push-back). Several compose on one task, all or nothing and in a fixed order ({@link
 * io.taskgate.engine.throttle.ThrottleChain}), their permits given back exactly once ({@link
 * io.taskgate.engine.throttle.Permits}), and a task waiting for a resource holds no worker ({@link
 * io.taskgate.engine.throttle.ResourceWaiters}). The views read the throttles' state through read
 * models here: {@link io.taskgate.engine.throttle.RateLimitReads} (parked tasks, policies, pacing,
 * push-backs), {@link io.taskgate.engine.throttle.ThrottlerWaits}, and any kind's rows ({@link
 * io.taskgate.engine.throttle.ThrottleRow}, {@link io.taskgate.engine.throttle.Throttles#rows}).
 *
 * <h2>How to add a throttle</h2>
 *
 * A new kind lives in a subpackage of its own: a {@code Throttle} (pick its {@code order}: {@link
 * io.taskgate.engine.throttle.Throttle#RESOURCES} for permits that can be given back, {@link
 * io.taskgate.engine.throttle.Throttle#WINDOWS}, {@link
 * io.taskgate.engine.throttle.Throttle#BUDGETS} for time spent for good), an
 * {@code @ApplicationScoped} {@code ThrottleProvider} that puts it on the task types that declare
 * it (and lists its rows for the views), and a {@code ThrottleContract} test. Nothing else in the
 * engine changes. The worked example is {@code engine.throttle.concurrency} ({@code @Concurrency}:
 * at most N tasks of one key running at once); docs/architecture.md walks through it.
 *
 * <p>This package depends on the API, the core, the store's task record and queries, and the
 * handler descriptions only.
 */
package io.taskgate.engine.throttle;
