/** Tasks and handlers that the in-container engine tests dispatch, and the probe they report to. */
package io.taskgate.it.engine;
