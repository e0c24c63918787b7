package io.taskgate.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * How a caller waits for its writes to be committed ({@link TaskStore#writeAll(java.util.List,
 * CommitWait)}): {@link #PLAIN}ly, or doing work of its own meanwhile (the engine's workers start
 * tasks whose slot has come while their commit is held up). The store decides when a commit is
 * done; the caller decides what it does until then.
 */
public interface CommitWait {
  /** Waits for the commit and does nothing else. */
  CommitWait PLAIN =
      new CommitWait() {
        @Override
        public <T> T await(CompletableFuture<T> commit) {
          return join(commit);
        }
      };

  /**
   * Returns when {@code commit} is done: its result, or what it failed with (unwrapped when
   * unchecked).
   */
  <T> T await(CompletableFuture<T> commit);

  /** The result of a done (or soon done) commit, its failure thrown unwrapped when unchecked. */
  static <T> T join(CompletableFuture<T> commit) {
    try {
      return commit.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
