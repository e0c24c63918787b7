/** What the process tests deploy to record their handlers' starts where a kill cannot lose them. */
package io.taskgate.it.ledger;
