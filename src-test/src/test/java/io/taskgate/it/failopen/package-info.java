/** An application run with a tiny tracked-key cap; never added to the Arquillian ITs. */
package io.taskgate.it.failopen;
