/**
 * An application that replaces Taskgate's keyed limiter with its own
 * ({@code @Alternative @Priority}), deployed by MicroProcessIT.
 */
package io.taskgate.it.replaced;
