package io.taskgate.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@link TaskStore} that commits the writes of many callers together: {@link #insert} and {@link
 * #update} hand their write to a few writer threads and wait for it; a writer takes every write
 * waiting (up to a batch size) and applies them with one {@link TaskStore#writeAll}, one
 * transaction. Callers see exactly what the delegate would have answered them alone, once their
 * write is committed; while one batch commits the next one gathers, so the busier the engine the
 * fewer commits per task.
 *
 * <p>Nothing is lost or mixed up by batching:
 *
 * <ul>
 *   <li>A batch that fails (an invalid write, a database error) is retried one write per
 *       transaction, so a bad write fails alone, with its own exception, and the others commit.
 *   <li>A caller already in a transaction writes directly, inside it, so its write commits or rolls
 *       back with the caller's work, as without batching.
 *   <li>After {@link #close()} every write goes directly to the delegate; writes still waiting are
 *       applied before the writers stop.
 * </ul>
 *
 * Reads always go straight to the delegate. A caller that named work it may do while it waits
 * ({@link CommitWait}) does it while its writes are committed. A caller that waits plainly and
 * finds no write waiting and fewer than {@code writerCount} commits under way commits its writes
 * itself, on its own thread: a lone write then costs no hand-over between threads.
 */
public final class GroupCommitTaskStore extends ForwardingTaskStore implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(GroupCommitTaskStore.class.getName());

  private final int maxBatch;
  private final BooleanSupplier callerInTransaction;
  private final LinkedBlockingDeque<Pending> waiting = new LinkedBlockingDeque<>();

  /**
   * One permit per writer: a transaction being committed holds one, so that at most {@code
   * writerCount} commit at once, whether a writer or a caller commits it.
   */
  private final Semaphore committing;

  /** Whether a plain caller that finds nothing waiting may commit its writes itself. */
  private volatile boolean callersCommit = true;

  private final List<Thread> writers = new ArrayList<>();
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong batchedWrites = new AtomicLong();
  private volatile boolean closed;

  /**
   * Starts {@code writerCount} writer threads from {@code threads}.
   *
   * @param delegate the store that applies the batches
   * @param threads makes the writer threads (in a container: a {@code ManagedThreadFactory}, so
   *     that writers can start transactions)
   * @param writerCount writer threads, at least 1
   * @param maxBatch most writes per transaction, at least 1
   * @param callerInTransaction whether the calling thread is in a transaction of its own
   */
  public GroupCommitTaskStore(
      TaskStore delegate,
      ThreadFactory threads,
      int writerCount,
      int maxBatch,
      BooleanSupplier callerInTransaction) {
    super(delegate);
    Objects.requireNonNull(threads, "threads");
    if (writerCount < 1) {
      throw new IllegalArgumentException("writerCount must be at least 1, was " + writerCount);
    }
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
    }
    this.maxBatch = maxBatch;
    this.committing = new Semaphore(writerCount);
    this.callerInTransaction = Objects.requireNonNull(callerInTransaction, "callerInTransaction");
    for (int i = 0; i < writerCount; i++) {
      Thread writer = threads.newThread(this::writeLoop);
      writer.setName("taskgate-store-writer-" + i);
      writer.setDaemon(true);
      writers.add(writer);
    }
    writers.forEach(Thread::start);
  }

  @Override
  public void insert(StoredTask task) {
    write(new TaskWrite.Insert(task));
  }

  @Override
  public Optional<StoredTask> update(StoredTask expected, StoredTask changed, Instant now) {
    return write(new TaskWrite.Update(expected, changed, now));
  }

  /**
   * Commits {@code writes} together with other callers' writes, as {@link #insert} does with one:
   * all of them in the same transaction, and if they fail, they fail together and alone.
   */
  @Override
  public List<Optional<StoredTask>> writeAll(List<TaskWrite> writes) {
    return writeAll(writes, CommitWait.PLAIN);
  }

  /** {@link #writeAll(List)}, the caller waiting for the commit as {@code wait} says. */
  @Override
  public List<Optional<StoredTask>> writeAll(List<TaskWrite> writes, CommitWait wait) {
    List<TaskWrite> copy = List.copyOf(writes);
    return copy.isEmpty() ? List.of() : submit(copy, wait);
  }

  /**
   * Leaves every write to the writers, even a lone one: for a database whose commit costs far more
   * than a hand-over between threads (embedded H2 writes a file chunk and a checkpoint per commit),
   * gathering concurrent callers into one commit is worth more.
   */
  public GroupCommitTaskStore writersOnly() {
    callersCommit = false;
    return this;
  }

  /** Transactions committed by the writers so far. */
  public long batches() {
    return batches.get();
  }

  /** Writes committed by the writers so far (their sum over {@link #batches()}). */
  public long batchedWrites() {
    return batchedWrites.get();
  }

  /** Stops the writers once the writes waiting now are applied; later writes go directly. */
  @Override
  public void close() {
    closed = true; // writers are not interrupted: an interrupt can break a JDBC driver's I/O
    for (Thread writer : writers) {
      try {
        writer.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    List<Pending> left = new ArrayList<>();
    waiting.drainTo(left);
    left.forEach(this::applyAlone);
  }

  private Optional<StoredTask> write(TaskWrite write) {
    return submit(List.of(write), CommitWait.PLAIN).get(0);
  }

  private List<Optional<StoredTask>> submit(List<TaskWrite> writes, CommitWait wait) {
    if (closed || callerInTransaction.getAsBoolean()) {
      return delegate.writeAll(writes);
    }
    if (callersCommit && wait == CommitWait.PLAIN && waiting.isEmpty() && committing.tryAcquire()) {
      // nothing to gather and a commit free: this caller commits its writes itself, sparing the
      // hand-over to a writer and back
      try {
        List<Optional<StoredTask>> results = delegate.writeAll(writes);
        batches.incrementAndGet();
        batchedWrites.addAndGet(writes.size());
        return results;
      } finally {
        committing.release();
      }
    }
    Pending pending = new Pending(writes, new CompletableFuture<>());
    waiting.add(pending);
    if (closed && waiting.remove(pending)) {
      // closed while we queued, and no writer took it: apply it here
      return delegate.writeAll(writes);
    }
    return wait.await(pending.result()); // the caller may start a due task meanwhile
  }

  private void writeLoop() {
    List<Pending> batch = new ArrayList<>(maxBatch);
    while (true) {
      try {
        Pending first = waiting.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          if (closed) {
            return;
          }
          continue;
        }
        if (!committing.tryAcquire()) {
          // callers commit meanwhile: wait for a commit to be free, the write back at the head
          waiting.putFirst(first);
          committing.acquireUninterruptibly(); // writers are never interrupted (see close)
          first = waiting.poll();
          if (first == null) {
            committing.release();
            continue;
          }
        }
        batch.add(first);
        try {
          int writes = first.writes().size();
          Pending next;
          while (writes < maxBatch
              && (next = waiting.peek()) != null
              && writes + next.writes().size() <= maxBatch
              && waiting.remove(next)) {
            batch.add(next);
            writes += next.writes().size();
          }
          apply(batch);
        } finally {
          committing.release();
        }
      } catch (InterruptedException e) {
        LOG.warning("A task store writer was interrupted; it goes on until the store closes");
      } catch (RuntimeException | Error e) {
        // apply() completes every future itself; this is a defect, keep the writer alive
        LOG.log(Level.SEVERE, "A task store writer failed", e);
        batch.forEach(p -> p.result().completeExceptionally(e));
      } finally {
        batch.clear();
      }
    }
  }

  private void apply(List<Pending> batch) {
    if (batch.size() == 1) {
      applyAlone(batch.get(0));
      return;
    }
    List<TaskWrite> writes = new ArrayList<>();
    for (Pending pending : batch) {
      writes.addAll(pending.writes());
    }
    List<Optional<StoredTask>> results;
    try {
      results = delegate.writeAll(writes);
    } catch (RuntimeException e) {
      LOG.log(
          Level.FINE,
          "A batch of " + writes.size() + " task writes failed; applying them caller by caller",
          e);
      batch.forEach(this::applyAlone);
      return;
    }
    batches.incrementAndGet();
    batchedWrites.addAndGet(writes.size());
    int from = 0;
    for (Pending pending : batch) {
      int to = from + pending.writes().size();
      pending.result().complete(List.copyOf(results.subList(from, to)));
      from = to;
    }
  }

  private void applyAlone(Pending pending) {
    try {
      List<Optional<StoredTask>> results = delegate.writeAll(pending.writes());
      batches.incrementAndGet();
      batchedWrites.addAndGet(pending.writes().size());
      pending.result().complete(results);
    } catch (RuntimeException | Error e) {
      pending.result().completeExceptionally(e);
    }
  }

  private record Pending(
      List<TaskWrite> writes, CompletableFuture<List<Optional<StoredTask>>> result) {}
}
