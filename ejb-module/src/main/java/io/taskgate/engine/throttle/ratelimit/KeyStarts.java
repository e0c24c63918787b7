package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.engine.throttle.StartCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;

/**
 * The start check of a task the gate let through with a key ({@link StartCheck}): its key's start
 * window is shut from the check until the handler is entered, the start is held back when it would
 * come too close to the key's last one ({@link StartSpacingGuard}), and it is logged for the pacing
 * view ({@link PacingLog}) and counted again when the handler is called and entered.
 */
@ApplicationScoped
class KeyStarts {
  private static final Logger LOG = Logger.getLogger(KeyStarts.class.getName());

  private final StartSpacingGuard spacing;
  private final PacingLog pacing;
  private final InstantSource clock;
  private final SavedBudgets saved;

  /** For the CDI proxy. */
  protected KeyStarts() {
    this(null, null, null, null);
  }

  @Inject
  KeyStarts(StartSpacingGuard spacing, PacingLog pacing, InstantSource clock, SavedBudgets saved) {
    this.spacing = spacing;
    this.pacing = pacing;
    this.clock = clock;
    this.saved = saved;
  }

  /** The check of task {@code taskId}'s start, let through with {@code permit}. */
  StartCheck of(RateLimitGate.GatePermit permit, UUID taskId) {
    return new KeyStart(permit, taskId);
  }

  private final class KeyStart implements StartCheck {
    private final RateLimitGate.GatePermit permit;
    private final UUID taskId;
    private final ReentrantLock window;

    KeyStart(RateLimitGate.GatePermit permit, UUID taskId) {
      this.permit = permit;
      this.taskId = taskId;
      this.window = spacing.startWindow(permit.scope().name(), permit.key());
    }

    @Override
    public void open() {
      window.lock();
    }

    @Override
    public Hold holdUntil(Instant now, Hold previous) {
      String scope = permit.scope().name();
      Hold holdUntil =
          spacing.holdUntil(
              scope, permit.key(), permit.policy(), now, previous, taskId, permit.cost());
      if (holdUntil != null) {
        LOG.fine(
            () ->
                "Task "
                    + taskId
                    + " of key "
                    + permit.key()
                    + " waits until "
                    + holdUntil.until()
                    + " so that its start keeps the policy's spacing after a late start");
        return holdUntil;
      }
      pacing.started(scope, permit.key(), clock.instant(), permit.heldUntil());
      return null;
    }

    @Override
    public void starting(Instant now) {
      // counted locally; with the budgets in the grid, the handler's entry counts a late start
      spacing.startedNow(permit.scope().name(), permit.key(), permit.policy(), now, permit.cost());
    }

    @Override
    public void entered(Instant now) {
      spacing.entered(permit.scope().name(), permit.key(), permit.policy(), now, permit.cost());
      saved.started(permit.scope().name(), permit.key()); // after the chain moved
    }

    @Override
    public void close() {
      window.unlock();
    }
  }
}
