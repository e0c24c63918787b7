/**
 * What the upgrade test runs: the same tasks and handlers in the build that wrote the fixture
 * database and in this one ({@code UpgradeIT}).
 */
package io.taskgate.it.upgrade;
