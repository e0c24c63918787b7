/**
 * Test classes that {@code ExampleShopIT} adds to the example shop's WAR: a start-up that takes its
 * time, a task it dispatches while starting, and a resource that reports what happened.
 */
package io.taskgate.it.shop;
