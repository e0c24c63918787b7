package io.taskgate.engine;

import java.time.Instant;

/**
 * CDI event: the application's {@link java.time.InstantSource} jumped, which only a settable test
 * clock does (the production clock, {@link ClockProducer}, never fires it). A timer armed with a
 * delay computed from the old time is then late or early by the jump; a bean holding such timers
 * observes this to re-arm them against the new time.
 *
 * @param from the clock's time just before the jump
 * @param to its time just after
 */
public record ClockMoved(Instant from, Instant to) {}
