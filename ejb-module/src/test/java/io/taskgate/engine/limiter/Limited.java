package io.taskgate.engine.limiter;

import io.taskgate.core.time.Ticker;
import io.taskgate.engine.EngineParts;
import io.taskgate.engine.event.Counted;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.event.TaskHistory;
import io.taskgate.engine.time.ManualTimeline;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The {@code @RateLimited} interceptor outside a container: real beans' methods called through it,
 * on a hand-moved timeline (its ticker, and the timers of waiting calls) with config from a map;
 * asynchronous calls that waited run on the thread that moves time.
 */
final class Limited {
  final ManualTimeline timeline = new ManualTimeline(Instant.parse("2026-11-26T10:00:00Z"));
  final Ticker ticker = timeline.ticker();
  final Map<String, String> config = new HashMap<>();
  final RateLimitedInterceptor interceptor = new RateLimitedInterceptor();
  volatile String caller = "alice";
  final TaskHistory history = new TaskHistory();
  final MethodLimits limits =
      new MethodLimits() {
        @Override
        String callerKey() {
          return caller;
        }

        @Override
        Executor asyncRunner() {
          return Runnable::run;
        }
      };

  Limited() {
    limits.config = EngineParts.config(config);
    limits.ticker = ticker;
    limits.timers = timeline.timers();
    EngineEvents events = new EngineEvents();
    events.subscribe(Counted.class, history::count);
    limits.events = events;
    limits.clock = timeline.clock();
    interceptor.limits = limits;
    interceptor.ticker = ticker;
  }

  /** Calls {@code name} on {@code target} through the interceptor, as the container would. */
  Object call(Object target, String name, Object... args) throws Exception {
    Method method =
        Arrays.stream(target.getClass().getMethods())
            .filter(m -> m.getName().equals(name) && m.getParameterCount() == args.length)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no method " + name));
    return interceptor.limit(new Invocation(target, method, args));
  }

  /** An invocation of {@code method} on {@code target}. */
  record Invocation(Object target, Method method, Object[] args) implements InvocationContext {
    @Override
    public Object getTarget() {
      return target;
    }

    @Override
    public Object getTimer() {
      return null;
    }

    @Override
    public Method getMethod() {
      return method;
    }

    @Override
    public Constructor<?> getConstructor() {
      return null;
    }

    @Override
    public Object[] getParameters() {
      return args;
    }

    @Override
    public void setParameters(Object[] params) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, Object> getContextData() {
      return Map.of();
    }

    @Override
    public Object proceed() throws Exception {
      try {
        return method.invoke(target, args);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        throw (Error) e.getCause();
      }
    }
  }
}
