package io.taskgate.web.examples;

import io.taskgate.api.Task;
import java.util.UUID;

/** Sync one tenant's data with the (rate-limited) example API. */
public record SyncTenantData(UUID tenantId) implements Task {}
