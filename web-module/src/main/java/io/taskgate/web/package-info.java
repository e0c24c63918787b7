/**
 * The web module: the REST API ({@code api}), its security ({@code security}), the example handlers
 * ({@code examples}) and the switch that turns them off. Talks to the ejb-module through its
 * facades and DTOs only.
 */
package io.taskgate.web;
