package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.ThrottlingSpec;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.ThrottlerWaits;
import io.taskgate.store.ThrottlerRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The job throttlers as the views read them ({@link JobThrottlerReads}), and the tasks waiting for
 * any throttle's resource or a window ({@link ThrottlerWaits}).
 */
@ApplicationScoped
public class JobThrottlerViews implements JobThrottlerReads, ThrottlerWaits {
  private final JobThrottlers throttlers;

  /** For the CDI proxy. */
  protected JobThrottlerViews() {
    this(null);
  }

  @Inject
  JobThrottlerViews(JobThrottlers throttlers) {
    this.throttlers = throttlers;
  }

  /** The views of {@code throttlers}, for tests and code outside the container. */
  public static JobThrottlerViews of(JobThrottlers throttlers) {
    return new JobThrottlerViews(throttlers);
  }

  @Override
  public List<ThrottlerRecord> definitions() {
    return throttlers.definitions().list();
  }

  @Override
  public ThrottlerState state() {
    return throttlers.state();
  }

  @Override
  public Set<String> retrying(String resource) {
    return throttlers.retrying(resource);
  }

  @Override
  public WindowOptions window(ThrottlerKind kind, String id) {
    return throttlers.definitions().window(kind, id);
  }

  @Override
  public Counts counts(String name) {
    ThrottleStats.Counters c = throttlers.stats().counters().get(name);
    return c == null ? Counts.NONE : new Counts(c.acquired(), c.waited(), c.dropped());
  }

  @Override
  public void onWaited(BiConsumer<String, Duration> listener) {
    throttlers.stats().onWaited(listener);
  }

  @Override
  public Resolved resolve(ThrottlingSpec spec) {
    return throttlers.resolve(spec);
  }

  @Override
  public Set<UUID> waitingIds() {
    Set<UUID> ids = new HashSet<>(throttlers.waiters().waitingIds());
    throttlers.windowWaits().addIds(ids);
    return ids;
  }

  @Override
  public Optional<String> waitingFor(UUID taskId) {
    Optional<String> resource = throttlers.waiters().waitsFor(taskId);
    return resource.isPresent() ? resource : throttlers.windowWaits().windowOf(taskId);
  }
}
