/**
 * The web module: the REST API ({@code api}), the admin pages' beans ({@code admin}), security
 * ({@code security}), the example handlers ({@code examples}) and the switch that turns them off.
 * Talks to the ejb-module through its facades and DTOs only.
 */
package io.taskgate.web;
