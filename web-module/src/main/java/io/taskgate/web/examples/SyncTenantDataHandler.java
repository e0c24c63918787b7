package io.taskgate.web.examples;

import io.taskgate.api.Backoff;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/**
 * Calls {@link ExampleTenantApi#sync}, which allows a tenant 15 calls in any minute. The keyed gate
 * paces each tenant to that limit: one sync every 4 seconds ({@code burst = 1}, so no saved-up
 * budget ever lets 16 calls into one minute), while other tenants run at once. Over-budget syncs
 * are parked until their slot, not failed. A call that still meets the API's 429 (a start delayed
 * at the edge of the window) is retried once, at the tenant's next slot.
 */
@TaskHandler(maxAttempts = 2, backoff = Backoff.FIXED, retryDelay = "PT1S", jitter = 0)
@RateLimit(permits = 15, period = "PT1M", burst = 1)
public class SyncTenantDataHandler implements Handler<SyncTenantData> {
  @Inject ExampleTenantApi api;

  @Override
  public void handle(SyncTenantData task, TaskContext context) {
    if (task.tenantId() == null) {
      throw new IllegalArgumentException("SyncTenantData needs a tenantId");
    }
    api.sync(task.tenantId());
  }
}
