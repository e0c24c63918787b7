package io.taskgate.engine.run;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.Task;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.throttle.Permits;
import io.taskgate.store.StoredTask;
import java.time.Instant;

/**
 * A task ready to be claimed: as read, with its handler, its payload, the rate-limit slot it was
 * parked until (null if it was not), its rate-limit scope, key and policy (null if it passed no
 * gate), the slot it starts at once claimed ahead of it (null to start once claimed), and the
 * permits of its throttles, given back when the attempt ends.
 */
record Claim(
    StoredTask queued,
    HandlerInfo handler,
    Task task,
    Instant throttledUntil,
    String scope,
    String key,
    RateLimitPolicy policy,
    Instant startAt,
    Permits permits) {}
