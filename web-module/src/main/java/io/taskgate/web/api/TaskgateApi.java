package io.taskgate.web.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * Mounts the WAR's JAX-RS resources (this package's, and {@code /metrics/keys}) under {@code /api}.
 */
@ApplicationPath("api")
@OpenAPIDefinition(
    info =
        @Info(
            title = "Taskgate",
            version = "1",
            description =
                "Background tasks throttled per key. Reading requires the role taskgate-viewer"
                    + " or taskgate-admin, every other method taskgate-admin; /api/info is open."),
    security = @SecurityRequirement(name = "basic"))
@SecurityScheme(securitySchemeName = "basic", type = SecuritySchemeType.HTTP, scheme = "basic")
public class TaskgateApi extends Application {}
