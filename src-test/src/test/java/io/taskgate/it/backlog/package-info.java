/**
 * A deployment with a large parking lot and a resource that dispatches a backlog of one key in one
 * call: the pacing timeline with 10,000 parked tasks ({@code MicroProcessIT}).
 */
package io.taskgate.it.backlog;
