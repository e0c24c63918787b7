/** Applications that must fail to deploy; never added to the other ITs' deployments. */
package io.taskgate.it.badconcurrency;
