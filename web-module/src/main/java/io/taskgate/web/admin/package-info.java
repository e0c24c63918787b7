/**
 * The admin pages' backing beans (Jakarta Faces): overview, tasks and rate limits. They read and
 * act through the engine's facades ({@code TaskAdmin}, {@code ThrottleViews}) and their DTOs, never
 * through storage or JPA entities. May depend on the Taskgate API and engine facades, the Jakarta
 * EE APIs and {@code io.taskgate.web.security}.
 */
package io.taskgate.web.admin;
