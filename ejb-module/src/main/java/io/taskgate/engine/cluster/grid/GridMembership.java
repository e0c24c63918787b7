package io.taskgate.engine.cluster.grid;

import java.util.Set;

/** Who is in the data grid: this instance's member, and every member now. */
public interface GridMembership {
  /** This instance's member of the grid (its UUID). */
  String self();

  /** Every member of the grid now (their UUIDs), this one among them. */
  Set<String> members();
}
