/**
 * State kept in Payara's data grid (its Hazelcast) so that several instances share it: the keyed
 * rate limiter with one budget per key across the cluster, and its fallback while the grid does not
 * answer.
 *
 * <h2>Degraded mode</h2>
 *
 * A call the grid does not answer within the budget ({@code taskgate.rate-limit.grid-timeout}) or
 * answers with an error spends nothing: its task is deferred by the budget, without a reservation,
 * and asks the grid again then (a budget of this instance's own, beside the grid's, would let its
 * starts fall among the other instances'). After {@code GridKeyedRateLimiter.DEGRADE_AFTER} (3)
 * such calls within a second, calls are decided by a local fallback limiter without waiting, at
 * this instance's share of each key's rate: the policy's rate divided by N, the number of members
 * the grid has (and its burst too, at least 1); one call a second tries the grid again. The first
 * answer ends the degraded mode: the TAT of every key the fallback spent budget on is carried into
 * the grid ({@code GcraCell.raise}), so that no key's slot moves back and no key bursts; tasks the
 * fallback deferred keep their slots. Entering it is logged once a minute at most, leaving it once;
 * {@code GridKeyedRateLimiter.status()} counts both.
 *
 * <p>A call that timed out may still reach the grid later and spend budget there: the key is then
 * slower for a while, never faster.
 */
package io.taskgate.engine.cluster.grid;
