package io.taskgate.web.examples;

import io.taskgate.api.Handler;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/**
 * Calls {@link ExampleTenantApi#sync}. One attempt: a 16th sync of a tenant within a minute fails
 * with the API's error, which is what the keyed gate will prevent.
 */
@TaskHandler
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
