/**
 * Integration tests on real servers: Arquillian ITs on Payara Micro (the WAR) and the EAR smoke
 * test on Payara Server. May depend on every Taskgate module.
 */
package io.taskgate.it;
