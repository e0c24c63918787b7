package io.taskgate.web.examples;

import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import jakarta.validation.constraints.NotNull;
import java.util.UUID;

/**
 * Sync one tenant's data with the (rate-limited) example API. Its rate-limit key is the tenant:
 * each tenant has its own budget (see {@link SyncTenantDataHandler}). A task without a tenant is
 * refused at dispatch ({@code @NotNull}).
 */
public record SyncTenantData(@NotNull UUID tenantId) implements Task, RateLimitedTask {
  @Override
  public String rateLimitKey() {
    return tenantId == null ? null : tenantId.toString();
  }
}
