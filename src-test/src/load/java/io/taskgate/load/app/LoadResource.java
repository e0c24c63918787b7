package io.taskgate.load.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /api/load?tasks=20000&threads=4&batch=1}: one run, answered when it is over; with
 * {@code batch} above 1 each thread dispatches that many tasks per {@code dispatchAll}.
 */
@Path("load")
public class LoadResource {
  @Inject LoadRun load;
  @Inject PacingRun pacing;
  @Inject ThrottleRun throttlers;
  @Inject LimitedCallsRun limited;

  /**
   * {@code POST /api/load/limited?calls=200000&keys=10000}: what {@code @RateLimited} adds to a
   * call in the container (see {@link LimitedCallsRun}).
   */
  @POST
  @Path("limited")
  @Produces(MediaType.APPLICATION_JSON)
  public java.util.Map<String, Object> limited(
      @QueryParam("calls") @DefaultValue("200000") int calls,
      @QueryParam("keys") @DefaultValue("10000") int keys) {
    return limited.run(calls, keys);
  }

  /**
   * {@code POST /api/load/throttlers?tasks=2000&workMicros=1000}: the job throttlers' run (see
   * {@link ThrottleRun}).
   */
  @POST
  @Path("throttlers")
  @Produces(MediaType.APPLICATION_JSON)
  public java.util.Map<String, Object> throttlers(
      @QueryParam("tasks") @DefaultValue("2000") int tasks,
      @QueryParam("workMicros") @DefaultValue("1000") int workMicros)
      throws InterruptedException {
    return throttlers.run(tasks, workMicros);
  }

  /**
   * {@code POST /api/load/pacing?parked=10000&others=2000&gapMicros=2000&releaseMillis=0}: the
   * pacing run (see {@link PacingRun}).
   */
  @POST
  @Path("pacing")
  @Produces(MediaType.APPLICATION_JSON)
  public PacingResult pacing(
      @QueryParam("parked") @DefaultValue("10000") int parked,
      @QueryParam("others") @DefaultValue("2000") int others,
      @QueryParam("gapMicros") @DefaultValue("2000") int gapMicros,
      @QueryParam("releaseMillis") @DefaultValue("0") long releaseMillis)
      throws InterruptedException {
    return pacing.run(parked, others, gapMicros, releaseMillis);
  }

  /**
   * {@code POST /api/load/gc}: a full collection of this JVM's heap ({@code System.gc()}), answered
   * with the milliseconds it took. The pacing benchmark's optional step between its warm-up and its
   * measured runs (see {@code load.pacing.fullgc}).
   */
  @POST
  @Path("gc")
  @Produces(MediaType.TEXT_PLAIN)
  public String fullCollection() {
    long start = System.nanoTime();
    System.gc();
    return Long.toString((System.nanoTime() - start) / 1_000_000);
  }

  @POST
  @Produces(MediaType.APPLICATION_JSON)
  public LoadResult run(
      @QueryParam("tasks") @DefaultValue("20000") int tasks,
      @QueryParam("threads") @DefaultValue("4") int threads,
      @QueryParam("batch") @DefaultValue("1") int batch,
      @QueryParam("rate") @DefaultValue("0") int rate,
      @QueryParam("timeoutSeconds") @DefaultValue("600") int timeoutSeconds)
      throws InterruptedException {
    return load.run(tasks, threads, batch, rate, timeoutSeconds);
  }
}
