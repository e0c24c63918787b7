/**
 * An application run with a tiny tracked-key cap, limits keyed by the caller and its own mapper of
 * refusals; never added to the Arquillian ITs.
 */
package io.taskgate.it.failopen;
