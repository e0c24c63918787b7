package io.taskgate.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.store.CommitWait;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waiting for a commit while doing the work a caller named. */
class HelpingWaitTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  /** Work handed in by the test; the waiting thread is unparked when work arrives. */
  private static final class Work implements HelpingWait.Helper {
    final Queue<Runnable> items = new ConcurrentLinkedQueue<>();
    final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile Thread waiter;

    void add(Runnable item) {
      items.add(item);
      Thread thread = waiter;
      if (thread != null) {
        LockSupport.unpark(thread);
      }
    }

    @Override
    public boolean helpOnce() {
      Runnable item = items.poll();
      if (item == null) {
        return false;
      }
      item.run();
      return true;
    }

    @Override
    public void waiting(boolean waiting) {
      waiter = waiting ? Thread.currentThread() : null;
      events.add(waiting ? "waiting" : "done");
    }
  }

  @Test
  void whileTheCommitIsPendingTheWaiterDoesTheWorkThatArrivesThenGetsItsResult() throws Exception {
    Work work = new Work();
    CompletableFuture<String> commit = new CompletableFuture<>();
    Future<String> caller = threads.submit(() -> new HelpingWait(work).await(commit));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (work.waiter == null && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(work.waiter).as("the caller waits for its commit").isNotNull();

    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    work.add(
        () -> {
          ranOn.set(Thread.currentThread());
          ran.countDown();
        });
    assertThat(ran.await(5, TimeUnit.SECONDS)).as("work done before the commit").isTrue();
    assertThat(caller.isDone()).isFalse();
    assertThat(ranOn.get()).isSameAs(work.waiter);

    commit.complete("stored");
    assertThat(caller.get(5, TimeUnit.SECONDS)).isEqualTo("stored");
    assertThat(work.events).containsExactly("waiting", "done");
  }

  @Test
  void workDoneWhileWaitingWaitsPlainlyForItsOwnWrites() throws Exception {
    Work work = new Work();
    CompletableFuture<String> commit = new CompletableFuture<>();
    CompletableFuture<String> nested = new CompletableFuture<>();
    List<Boolean> nestedHelped = new ArrayList<>();
    HelpingWait wait = new HelpingWait(work);
    work.add(
        () -> {
          // a write made by the work itself: no helping now, so the work still queued waits
          threads.submit(
              () -> {
                sleep(50); // real time: the commit lands while the caller waits on it
                nested.complete("inner stored");
              });
          nestedHelped.add(wait.await(nested).equals("inner stored") && work.items.size() == 1);
          commit.complete("stored");
        });
    work.add(() -> {}); // must still be there when the nested write returns
    String result = wait.await(commit);

    assertThat(result).isEqualTo("stored");
    assertThat(nestedHelped).containsExactly(true);
  }

  @Test
  void withoutAHelperItWaitsPlainlyAndAFailureIsThrownUnwrapped() {
    CompletableFuture<String> done = CompletableFuture.completedFuture("x");
    assertThat(CommitWait.PLAIN.await(done)).isEqualTo("x");

    CompletableFuture<String> failed = new CompletableFuture<>();
    threads.submit(
        () -> {
          sleep(20); // real time: the commit fails while the caller waits on it
          failed.completeExceptionally(new IllegalStateException("constraint violated"));
        });
    Work work = new Work();
    assertThatThrownBy(() -> new HelpingWait(work).await(failed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("constraint violated");
    assertThat(work.events).containsExactly("waiting", "done");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
