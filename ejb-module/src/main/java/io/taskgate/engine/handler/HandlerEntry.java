package io.taskgate.engine.handler;

/**
 * A hook run on a worker's thread right before a handler's own code: {@link TaskHandlerInterceptor}
 * runs it as it enters the handler (or the worker does after the call, for a handler that is not
 * intercepted). The keyed gate uses it to count a start from the moment the handler is entered and
 * to keep its key's other starts waiting until then.
 */
public final class HandlerEntry {
  private static final ThreadLocal<Runnable> HOOK = new ThreadLocal<>();

  private HandlerEntry() {}

  /** Runs {@code hook} when the calling thread next enters a handler. */
  public static void onEnter(Runnable hook) {
    HOOK.set(hook);
  }

  /** Runs and clears the calling thread's hook, if it has one. */
  public static void enter() {
    Runnable hook = HOOK.get();
    if (hook != null) {
      HOOK.remove();
      hook.run();
    }
  }
}
