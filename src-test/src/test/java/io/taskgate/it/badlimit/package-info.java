/** An application whose {@code @RateLimited} key is wrong: it must not deploy. */
package io.taskgate.it.badlimit;
