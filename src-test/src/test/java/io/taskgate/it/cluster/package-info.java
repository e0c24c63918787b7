/** What the two-instance test deploys on both instances: a rate-limited probe and its ledger. */
package io.taskgate.it.cluster;
