package io.taskgate.load.app;

/**
 * The figures of one pacing run (times in microseconds).
 *
 * @param hotTasks tasks of the hot key dispatched
 * @param releaseMillis 0 when the hot tasks were dispatched to run at once (they are stored while
 *     the first of them already pace), else how long after the dispatch began they were all
 *     released together, stored beforehand
 * @param hotStarted how many of them started before the run gave up waiting
 * @param parkedMeasured hot tasks that were parked (the others ran at once, within the burst)
 * @param latenessP50Micros start − reserved slot, median, over the parked hot tasks
 * @param latenessP99Micros the same, 99th percentile
 * @param latenessMaxMicros the same, largest
 * @param onceParkedMeasured parked hot tasks whose slot came after the last of them was parked
 * @param onceParkedP99Micros their lateness, 99th percentile (no parking work competes)
 * @param early parked hot tasks that started before their slot (must be 0)
 * @param gcraViolations hot-key starts that the GCRA conformance test (the policy's interval and
 *     burst, full at the first observed start) does not let through
 * @param gcraWorstMicros how early the worst of them was against its conformance bound
 * @param gcraViolationsCdvt5ms the same test allowing 5 ms of delay variation (ITU CDVT)
 * @param busiestSecond the most hot-key starts in any one-second window
 * @param allowedPerSecond what the policy allows in one second: burst + permits
 * @param parkedBefore tasks parked when the "with hot key" measurement began
 * @param parkedAfter tasks parked when it ended
 * @param others tasks of other keys in each of the two measurements
 * @param baselineP50Micros other keys' dispatch-to-start median, no hot key
 * @param baselineP99Micros the same, 99th percentile
 * @param withHotP50Micros other keys' dispatch-to-start median while the hot key holds its tasks
 * @param withHotP99Micros the same, 99th percentile
 * @param gcPauses garbage collections from the hot key's first start to its last
 * @param gcPauseMillis their total time (as the JVM's collector beans count it)
 * @param spacedStarts starts held back to keep the key's spacing after a late one, from the hot
 *     key's dispatch to its last start (the engine's count, over every key)
 * @param startsWhileWaiting tasks started by a worker while it waited for the store to commit its
 *     own writes, over the same time (the engine's count, over every key)
 */
public record PacingResult(
    int hotTasks,
    long releaseMillis,
    int hotStarted,
    int parkedMeasured,
    long latenessP50Micros,
    long latenessP99Micros,
    long latenessMaxMicros,
    int onceParkedMeasured,
    long onceParkedP99Micros,
    long early,
    long gcraViolations,
    long gcraWorstMicros,
    long gcraViolationsCdvt5ms,
    int busiestSecond,
    int allowedPerSecond,
    int parkedBefore,
    int parkedAfter,
    int others,
    long baselineP50Micros,
    long baselineP99Micros,
    long withHotP50Micros,
    long withHotP99Micros,
    long gcPauses,
    long gcPauseMillis,
    long spacedStarts,
    long startsWhileWaiting) {}
