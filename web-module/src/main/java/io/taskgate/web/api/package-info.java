/**
 * The REST API under {@code /api}: resources parse input, call engine facades and return DTOs,
 * never JPA entities. May depend on {@code io.taskgate.engine} and the Jakarta EE APIs.
 */
package io.taskgate.web.api;
