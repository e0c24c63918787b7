package io.taskgate.load.app;

/**
 * The figures of one run. Latencies are dispatch-to-start: from the call of {@code dispatch}
 * (before the insert) to the handler's first line, both {@link System#nanoTime} in the same JVM.
 *
 * @param tasks tasks dispatched
 * @param threads threads that dispatched them
 * @param completed tasks whose handler reported them COMPLETED within the timeout
 * @param storedCompleted how many more COMPLETED tasks of this type the store counts than before
 * @param queueFull dispatches that met a full channel (the task is stored; the sweep runs it)
 * @param dispatchSeconds from the first dispatch to the return of the last
 * @param totalSeconds from the first dispatch to the last task stored COMPLETED
 * @param tasksPerSecond {@code completed / totalSeconds}
 * @param p50Micros median dispatch-to-start latency
 * @param p99Micros 99th percentile dispatch-to-start latency
 * @param maxMicros largest dispatch-to-start latency
 * @param workerThreads distinct threads that ran handlers
 * @param callP50Micros median time a dispatch call ({@code dispatch} or {@code dispatchAll}) took
 * @param callP99Micros 99th percentile of the time a dispatch call took
 */
public record LoadResult(
    int tasks,
    int threads,
    int completed,
    long storedCompleted,
    int queueFull,
    double dispatchSeconds,
    double totalSeconds,
    double tasksPerSecond,
    long p50Micros,
    long p99Micros,
    long maxMicros,
    int workerThreads,
    long callP50Micros,
    long callP99Micros) {}
