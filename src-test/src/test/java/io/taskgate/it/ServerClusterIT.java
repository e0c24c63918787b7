package io.taskgate.it;

import static io.taskgate.it.PayaraServer.asadmin;
import static io.taskgate.it.PayaraServer.require;
import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.store.schema.SchemaMigrator;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The guide's recipe (docs/several-instances.md) for several instances on Payara Server: a domain
 * of its own (portbase {@code taskgate.dg.ports}, the instances' the next two), its data grid under
 * a cluster name of its own, PostgreSQL (database {@code taskgate_dg}), a deployment group of two
 * instances a and b with the budgets in the grid, and Taskgate's EAR deployed to the group.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerClusterIT {
  private static final String DOMAIN = "taskgate-dg";
  private static final String GROUP = "taskgate";
  private static final String DB = "taskgate_dg";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final String ports = ItConfig.required("taskgate.dg.ports");
  private final Path domainDir = Path.of(ItConfig.required("taskgate.shop.domaindir"));
  // portbases: the domain's ports00, the instances' the next two hundreds
  private final Map<String, String> instancePorts =
      Map.of(
          "a", String.valueOf(Integer.parseInt(ports) + 1),
          "b", String.valueOf(Integer.parseInt(ports) + 2));
  private boolean started;

  @BeforeAll
  void aDeploymentGroupOfTwoInstances() throws Exception {
    Path nodes = Path.of(ItConfig.required("payara.home"), "glassfish", "nodes");
    if (Files.isDirectory(domainDir.resolve(DOMAIN))) { // left by a build that was killed
      for (String instance : instancePorts.keySet()) {
        asadmin(
            Map.of(), "stop-local-instance", "--node", "localhost-" + DOMAIN, "--kill", instance);
      }
      asadmin(Map.of(), "stop-domain", "--kill", "--domaindir", domainDir.toString(), DOMAIN);
      asadmin(Map.of(), "delete-domain", "--domaindir", domainDir.toString(), DOMAIN);
    }
    MicroRuns.deleteTree(nodes.resolve("localhost-" + DOMAIN));
    MicroRuns.recreateDatabase(DB);
    String admin = ports + "48";
    PayaraServer.createDomain(domainDir, DOMAIN, ports);
    require(asadmin(Map.of(), "start-domain", "--domaindir", domainDir.toString(), DOMAIN));
    started = true;
    // a data grid of its own: the domain's server and instances, and no other Payara
    require(
        asadmin(
            Map.of(),
            "--port",
            admin,
            "set-hazelcast-configuration",
            "--clustername",
            "taskgate-it-" + UUID.randomUUID()));
    require(asadmin(Map.of(), "restart-domain", "--domaindir", domainDir.toString(), DOMAIN));
    require(
        asadmin(
            Map.of(), "--port", admin, "add-library", ItConfig.required("taskgate.postgresqlJar")));
    require(asadmin(Map.of(), "--port", admin, "multimode", "--file", datasource().toString()));
    require(asadmin(Map.of(), "--port", admin, "create-deployment-group", GROUP));
    for (var instance : instancePorts.entrySet()) {
      require(
          asadmin(
              Map.of(),
              "--port",
              admin,
              "create-instance",
              "--node",
              "localhost-" + DOMAIN,
              "--deploymentgroup",
              GROUP,
              "--portbase",
              instance.getValue() + "00",
              "--systemproperties",
              "taskgate.cluster.instance-id="
                  + instance.getKey()
                  + ":taskgate.rate-limit.limiter=grid"
                  // the test's: the peers' views within a second
                  + ":taskgate.cluster.heartbeat-interval=PT1S",
              instance.getKey()));
    }
    require(asadmin(Map.of(), "--port", admin, "start-deployment-group", GROUP));
    // the group's instances deploy the EAR at once; both are held at the schema's lock until both
    // wait for it, then one migrates the new database while the other waits again
    try (Connection holder = MicroRuns.connect(DB)) {
      try (Statement s = holder.createStatement()) {
        s.execute("SELECT pg_advisory_lock(" + SchemaMigrator.LOCK_KEY + ")");
      }
      CompletableFuture<Integer> deploy =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return asadmin(
                      Map.of(),
                      "--port",
                      admin,
                      "deploy",
                      "--target",
                      GROUP,
                      Path.of(ItConfig.required("taskgate.war"))
                          .resolveSibling("taskgate.ear")
                          .toString());
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      Await.until(
          () -> ClusterIT.waitingForTheSchemaLock(holder),
          waiting -> waiting == 2 || deploy.isDone(),
          Duration.ofMinutes(4),
          Duration.ofMillis(250),
          waiting -> waiting + " instances waited for the schema's lock, not 2");
      assertThat(deploy).as("the deployment waits for the schema").isNotDone();
      try (Statement s = holder.createStatement()) {
        s.execute("SELECT pg_advisory_unlock(" + SchemaMigrator.LOCK_KEY + ")");
      }
      require(deploy.get(4, TimeUnit.MINUTES));
    }
  }

  @AfterAll
  void stopTheGroupAndTheDomain() throws Exception {
    if (started) {
      // killed where they run: an instance stopped by the domain right after its restart has hung
      // in Payara's own shutdown (its transaction recovery waiting for the JMX connector while
      // holding the connector deployer's lock)
      for (String instance : instancePorts.keySet()) {
        asadmin(
            Map.of(), "stop-local-instance", "--node", "localhost-" + DOMAIN, "--kill", instance);
      }
      asadmin(Map.of(), "stop-domain", "--kill", "--domaindir", domainDir.toString(), DOMAIN);
    }
  }

  /** The PostgreSQL switch of server-config, its placeholders filled for this test's database. */
  private Path datasource() throws Exception {
    Path config = Path.of(ItConfig.required("taskgate.serverConfig"));
    Properties values = new Properties();
    try (InputStream in = Files.newInputStream(config.resolve("postgresql.properties"))) {
      values.load(in);
    }
    values.setProperty("taskgate.db.name", DB);
    String commands =
        Files.readString(config.resolve("datasource-postgresql.asadmin"), StandardCharsets.UTF_8);
    for (String name : values.stringPropertyNames()) {
      commands = commands.replace("${" + name + "}", values.getProperty(name));
    }
    assertThat(commands).doesNotContain("${");
    Path filled = domainDir.resolve("datasource-" + DB + ".asadmin");
    Files.writeString(filled, commands, StandardCharsets.UTF_8);
    return filled;
  }

  private URI api(String instance, String path) {
    return URI.create(
        "http://localhost:" + instancePorts.get(instance) + "80/taskgate/api/" + path);
  }

  private JsonObject get(String instance, String path) throws Exception {
    return Http.json(Http.send("GET", api(instance, path), null, "admin", "taskgate"));
  }

  @Test
  @Order(1)
  void theInstancesOfTheGroupShareOneGridAndOneBudgetPerKey() throws Exception {
    for (String self : List.of("a", "b")) {
      JsonObject view =
          Await.until(
              () -> get(self, "cluster"),
              v ->
                  v.getJsonArray("instances").getValuesAs(JsonObject.class).stream()
                          .filter(i -> i.getBoolean("alive") && i.containsKey("gridMember"))
                          .count()
                      == 2,
              TIMEOUT,
              Duration.ofMillis(250),
              v -> self + "'s view of two live instances in the grid: " + v);
      for (JsonObject member : view.getJsonArray("instances").getValuesAs(JsonObject.class)) {
        // read from the EAR, which Payara Server deploys unpacked
        assertThat(member.getString("version")).isEqualTo(ItConfig.required("taskgate.version"));
      }
      JsonObject limiter = view.getJsonObject("limiter");
      assertThat(limiter.getString("mode")).isEqualTo("grid");
      assertThat(limiter.getBoolean("degraded")).as(limiter.toString()).isFalse();
      assertThat(limiter.getJsonArray("outsideGrid")).isEmpty();
    }

    // one tenant's tasks, three dispatched to each instance: 15 a minute, burst 1, so one budget
    // gives them slots 4 s apart over 20 s; two budgets would give each slot twice
    String tenant = UUID.randomUUID().toString();
    List<Instant> estimates = new ArrayList<>();
    Map<String, String> ids = new java.util.LinkedHashMap<>();
    for (String instance : List.of("a", "a", "a", "b", "b", "b")) {
      HttpResponse<String> sent =
          Http.send(
              "POST",
              api(instance, "tasks/SyncTenantData"),
              "{\"tenantId\":\"" + tenant + "\"}",
              "admin",
              "taskgate");
      assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
      estimates.add(Instant.parse(Http.json(sent).getString("estimatedStart")));
      ids.put(Http.json(sent).getString("id"), instance);
    }
    // each instance's own count, read from its memory: with one budget b's three are parked for
    // the first 11 s at least (slots 12, 16 and 20 s after the first), however long the dispatches
    // took (the second task, 4 s after the first, may have started by then on a loaded machine, so
    // the count alone cannot tell one budget from two: the key's next slot below and the check of
    // every start do). What a peer parked reaches the other's view with the peer's next heartbeat
    List<String> seen = new ArrayList<>();
    boolean[] peerSeen = {false};
    JsonObject page =
        Await.until(
            () -> {
              JsonObject onA = get("a", "rate-limits?key=" + tenant);
              JsonObject onB = get("b", "rate-limits?key=" + tenant);
              int a = onA.getJsonObject("totals").getInt("parkedTasks");
              int b = onB.getJsonObject("totals").getInt("parkedTasks");
              int peerOfA = onA.getJsonObject("totals").getInt("peerParkedTasks");
              peerSeen[0] |= peerOfA > 0;
              seen.add(onA.getString("at").substring(11, 23) + " " + a + "+" + b + "/" + peerOfA);
              return a + b >= 3 ? onA : null;
            },
            p -> p != null,
            TIMEOUT,
            Duration.ofMillis(250),
            p ->
                "three or more of the tenant's six tasks parked on a and b (seen a+b/a's peers: "
                    + seen
                    + ")");
    // a's view also shows what b parked, as of b's last heartbeat
    Await.until(
        () ->
            peerSeen[0]
                || get("a", "rate-limits?key=" + tenant)
                        .getJsonObject("totals")
                        .getInt("peerParkedTasks")
                    > 0,
        Boolean::booleanValue,
        TIMEOUT,
        Duration.ofMillis(250),
        seenPeer -> "a's view never showed b's parked tasks (seen: " + seen + ")");
    JsonObject row = page.getJsonArray("items").getJsonObject(0);
    Instant first = estimates.stream().min(Instant::compareTo).orElseThrow();
    assertThat(Duration.between(first, Instant.parse(row.getString("nextSlot"))))
        .as("the key's next free slot after six tasks, from the first")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(23));

    // every start of the tenant, on either instance, within the policy. The EAR's example handler
    // writes no start: the time its attempt ended, from the task's history, stands for it, and a
    // first call on cold code ends up to tens of ms after it began, so the check allows 100 ms
    // more than the engine's tolerance (the policy's interval is 4 s)
    Conformance.Run run = Conformance.run(Conformance.START_TOLERANCE.plus(Duration.ofMillis(100)));
    Conformance.Key key = run.key(tenant, Conformance.Policy.of(15, Duration.ofMinutes(1), 1));
    for (var task : ids.entrySet()) {
      JsonObject done =
          Await.until(
              () -> get(task.getValue(), "tasks/" + task.getKey()),
              t -> t.getString("status").equals("COMPLETED"),
              Duration.ofMinutes(1),
              Duration.ofMillis(500),
              t -> "task " + task.getKey() + ": " + t);
      for (JsonObject change : done.getJsonArray("history").getValuesAs(JsonObject.class)) {
        if (change.getString("to").equals("COMPLETED")) {
          key.started(
              new Conformance.Start(
                  Instant.parse(change.getString("at")), task.getKey(), task.getValue()));
        }
      }
    }
    assertThat(key.starts()).hasSize(6);
    System.out.println("ServerClusterIT: " + run.assertConforms());
  }

  /**
   * Instance b restarted with its budgets local: a sees a live peer outside its grid, says so in
   * its cluster view and health, and limits each key to its share.
   */
  @Test
  @Order(2)
  void aPeerWithBudgetsOfItsOwnTurnsTheOthersToTheirShare() throws Exception {
    String admin = ports + "48";
    require(
        asadmin(
            Map.of(),
            "--port",
            admin,
            "create-system-properties",
            "--target",
            "b",
            "taskgate.rate-limit.limiter=local"));
    // stopped, then started: each step waits for the instance (restart-instance left it stopped
    // once, on a loaded machine, and said it had succeeded)
    require(asadmin(Map.of(), "--port", admin, "stop-instance", "b"));
    require(asadmin(Map.of(), "--port", admin, "start-instance", "b"));

    JsonObject limiter =
        Await.until(
            () -> get("a", "cluster").getJsonObject("limiter"),
            l -> !l.getJsonArray("outsideGrid").isEmpty(),
            TIMEOUT,
            Duration.ofMillis(250),
            l -> "a's limiter naming b outside its grid: " + l);
    assertThat(limiter.getJsonArray("outsideGrid").getString(0)).isEqualTo("b");
    assertThat(limiter.getBoolean("degraded")).isTrue();
    assertThat(limiter.getInt("share")).isEqualTo(2);
    // b itself, once its API answers again: budgets of its own
    HttpResponse<String> b =
        Await.until(
            () -> Http.send("GET", api("b", "cluster"), null, "admin", "taskgate"),
            r -> r.statusCode() == 200,
            TIMEOUT,
            Duration.ofMillis(250),
            r -> "b's cluster view: " + r.statusCode());
    assertThat(Http.json(b).getJsonObject("limiter").getString("mode")).isEqualTo("local");
    JsonObject health =
        Http.readinessCheck(
            "http://localhost:" + instancePorts.get("a") + "80", "taskgate-rate-limiter");
    assertThat(health.getJsonObject("data").getString("outsideGrid")).isEqualTo("b");
  }
}
