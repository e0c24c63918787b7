package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.Config;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@code @RateLimited} adds to a call: the same bean method called plainly, and through
 * Taskgate's interceptor method (plan lookup, key, clock read, decision, lease), unkeyed and keyed
 * over 10,000 keys, every call admitted. The container's own interceptor dispatch (Weld's proxy and
 * invocation context) is not included: it is the same for any interceptor.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class InterceptorOverheadBenchmark {
  private static final int KEYS = 10_000;

  /** The bean: a method limited once for all, one limited per key, one not limited. */
  public static class Quotes {
    @RateLimited(permits = 1_000_000_000, period = "PT1S", burst = 1_000_000_000)
    public long shared(long sku) {
      return sku + 1;
    }

    @RateLimited(permits = 1_000_000_000, period = "PT1S", burst = 1_000_000_000)
    public long keyed(@RateLimitKey String tenant, long sku) {
      return sku + 1;
    }

    public long plain(long sku) {
      return sku + 1;
    }
  }

  final Quotes quotes = new Quotes();
  final RateLimitedInterceptor interceptor = new RateLimitedInterceptor();
  Method shared;
  Method keyed;
  String[] tenants;
  int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    MethodLimits limits = new MethodLimits();
    limits.config =
        (Config)
            Proxy.newProxyInstance(
                Config.class.getClassLoader(),
                new Class<?>[] {Config.class},
                (proxy, method, args) -> Optional.empty());
    limits.ticker = System::nanoTime;
    interceptor.limits = limits;
    interceptor.ticker = System::nanoTime;
    shared = Quotes.class.getMethod("shared", long.class);
    keyed = Quotes.class.getMethod("keyed", String.class, long.class);
    tenants = new String[KEYS];
    for (int i = 0; i < KEYS; i++) {
      tenants[i] = "tenant-" + i;
      interceptor.limit(new Call(quotes, keyed, new Object[] {tenants[i], 1L}, () -> 0L));
    }
  }

  @Benchmark
  public long plain() {
    return quotes.plain(next++);
  }

  @Benchmark
  public Object limitedOnce() throws Exception {
    long sku = next++;
    Object[] args = {sku};
    return interceptor.limit(new Call(quotes, shared, args, () -> quotes.shared(sku)));
  }

  @Benchmark
  public Object limitedPerKey() throws Exception {
    long sku = next++;
    String tenant = tenants[(int) (sku % KEYS)];
    Object[] args = {tenant, sku};
    return interceptor.limit(new Call(quotes, keyed, args, () -> quotes.keyed(tenant, sku)));
  }

  /** An invocation whose proceed calls the bean directly, as a container's would. */
  record Call(Object target, Method method, Object[] args, Proceed body)
      implements InvocationContext {
    interface Proceed {
      Object call() throws Exception;
    }

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
      return body.call();
    }
  }
}
