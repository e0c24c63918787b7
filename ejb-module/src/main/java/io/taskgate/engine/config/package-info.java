/** Reading settings from MicroProfile Config text; plain Java, depends on nothing of Taskgate. */
package io.taskgate.engine.config;
