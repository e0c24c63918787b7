package io.taskgate;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pure core stays pure: no Jakarta EE, no clock reads, no threads or locks, no dependency on
 * the engine. Each rule is also run against a class that breaks it, so a rule that could never fail
 * would fail here.
 */
class ArchitectureTest {
  static final String CORE = "io.taskgate.core..";

  static final JavaClasses PRODUCTION =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.taskgate");

  static final JavaClasses FIXTURE =
      new ClassFileImporter().importPackages("io.taskgate.archfixture");

  static List<ArchRule> pureRules(String packages) {
    return List.of(
        noClasses()
            .that()
            .resideInAPackage(packages)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("jakarta..", "javax..", "org.eclipse.microprofile..")
            .because("the core is plain Java, testable without a container"),
        noClasses()
            .that()
            .resideInAPackage(packages)
            .should()
            .accessTargetWhere(readsAClock())
            .because("the core takes the current time as an argument"),
        noClasses()
            .that()
            .resideInAPackage(packages)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.util.concurrent.locks..")
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(Thread.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(java.util.concurrent.Executor.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(java.util.concurrent.Future.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(java.util.Timer.class)
            .because("the core neither starts, blocks nor locks threads; atomics are fine"),
        methods()
            .that()
            .areDeclaredInClassesThat()
            .resideInAPackage(packages)
            .should()
            .notHaveModifier(JavaModifier.SYNCHRONIZED)
            .because("the core uses atomics, not monitors"));
  }

  /**
   * {@link #readsASystemClock()}, or any use of an {@code InstantSource}: the core takes instants.
   */
  private static com.tngtech.archunit.base.DescribedPredicate<JavaAccess<?>> readsAClock() {
    return describe(
        "reads a clock (System.currentTimeMillis/nanoTime, java.time now(), Clock.system…,"
            + " any InstantSource)",
        access ->
            readsASystemClock().test(access)
                || access.getTargetOwner().getName().equals("java.time.InstantSource"));
  }

  static List<ArchRule> coreRules() {
    return pureRules(CORE);
  }

  @ParameterizedTest
  @MethodSource("coreRules")
  void theCoreIsPure(ArchRule rule) {
    rule.check(PRODUCTION);
  }

  @Test
  void everyPurityRuleCatchesTheClassThatBreaksIt() {
    for (ArchRule rule : pureRules("io.taskgate.archfixture..")) {
      EvaluationResult result = rule.evaluate(FIXTURE);
      assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
    }
  }

  /** No class but engine.time reads a system clock: time is injected, so that tests can move it. */
  static ArchRule clocksRule() {
    return noClasses()
        .that()
        .resideOutsideOfPackage("io.taskgate.engine.time..")
        .should()
        .accessTargetWhere(readsASystemClock())
        .because(
            "the engine's clocks are injected (InstantSource and Ticker, produced by"
                + " engine.time.Clocks), so that tests can move them");
  }

  @Test
  void onlyEngineTimeReadsTheClocks() {
    clocksRule().check(PRODUCTION);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      classes = {
        io.taskgate.archfixture.ImpureLimiter.class,
        io.taskgate.archfixture.ClockByReference.class
      })
  void theClockRuleCatchesACallAndAMethodReference(Class<?> breaksIt) {
    assertThat(
            clocksRule().evaluate(new ClassFileImporter().importClasses(breaksIt)).hasViolation())
        .isTrue();
  }

  /**
   * Reads a system clock: System.currentTimeMillis or nanoTime (called or referenced), java.time
   * now(), Clock.system…, InstantSource.system.
   */
  private static com.tngtech.archunit.base.DescribedPredicate<JavaAccess<?>> readsASystemClock() {
    return describe(
        "reads a system clock (System.currentTimeMillis/nanoTime, java.time now(),"
            + " Clock.system…, InstantSource.system)",
        access -> {
          String owner = access.getTargetOwner().getName();
          String name = access.getName();
          return (owner.equals("java.lang.System")
                  && (name.equals("currentTimeMillis") || name.equals("nanoTime")))
              || (owner.startsWith("java.time.") && name.equals("now"))
              || (owner.equals("java.time.Clock") && name.startsWith("system"))
              || (owner.equals("java.time.InstantSource") && name.equals("system"));
        });
  }

  @Test
  void theCoreDoesNotDependOnTheEngine() {
    noClasses()
        .that()
        .resideInAPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.taskgate.engine..", "io.taskgate.store..", "io.taskgate.web..")
        .check(PRODUCTION);
  }

  @Test
  void theApiStandsAlone() {
    noClasses()
        .that()
        .resideInAPackage("io.taskgate.api..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.taskgate.core..",
            "io.taskgate.engine..",
            "io.taskgate.store..",
            "io.taskgate.web..")
        .because("a handler author imports io.taskgate.api alone")
        .check(PRODUCTION);
  }

  static ArchRule noCycles(String slicePattern) {
    return slices().matching(slicePattern).should().beFreeOfCycles();
  }

  @Test
  void noCyclesBetweenTheTopLevelPackages() {
    noCycles("io.taskgate.(*)..").check(PRODUCTION);
  }

  @Test
  void noCyclesBetweenTheEnginesPackages() {
    noCycles("io.taskgate.engine.(**)").check(PRODUCTION);
  }

  @Test
  void theCycleRuleCatchesTwoPackagesThatUseEachOther() {
    assertThat(noCycles("io.taskgate.archfixture.cycle.(**)").evaluate(FIXTURE).hasViolation())
        .isTrue();
  }

  static ArchRule storeAndApiDoNotSeeTheEngine() {
    return noClasses()
        .that()
        .resideInAnyPackage("io.taskgate.store..", "io.taskgate.api..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.taskgate.engine..")
        .because("storage and the API never call back into the engine");
  }

  @Test
  void theStoreAndTheApiDoNotDependOnTheEngine() {
    storeAndApiDoNotSeeTheEngine().check(PRODUCTION);
  }

  @Test
  void theStoreRuleCatchesAStoreClassThatCallsTheEngine() {
    assertThat(
            storeAndApiDoNotSeeTheEngine()
                .evaluate(new ClassFileImporter().importPackages("io.taskgate.store.archfixture"))
                .hasViolation())
        .isTrue();
  }

  /**
   * The rest of the engine (its root, {@code run}, {@code dispatch}, {@code schedule}, {@code
   * queue} and the views in {@code admin}) reaches throttling through {@code engine.throttle}
   * alone, never a throttle's own subpackage.
   */
  static ArchRule theEngineReachesThrottlingThroughTheDoor(String engine) {
    return noClasses()
        .that()
        .resideInAnyPackage(
            engine,
            engine + ".run..",
            engine + ".dispatch..",
            engine + ".schedule..",
            engine + ".queue..",
            engine + ".admin..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(engine + ".throttle.*..")
        .because(
            "the engine reaches every throttle through engine.throttle (Throttles, the Throttle"
                + " SPI, Permits), so that a kind of throttle is added without touching it");
  }

  @Test
  void theEngineReachesThrottlingThroughTheDoorOnly() {
    theEngineReachesThrottlingThroughTheDoor("io.taskgate.engine").check(PRODUCTION);
  }

  @Test
  void theEngineDoorRuleCatchesARunnerThatReachesAThrottlesParts() {
    EvaluationResult result =
        theEngineReachesThrottlingThroughTheDoor("io.taskgate.archfixture.door").evaluate(FIXTURE);

    assertThat(result.hasViolation()).isTrue();
    assertThat(String.join("\n", result.getFailureReport().getDetails()))
        .contains("ReachingRunner")
        .contains("PeekingView")
        .doesNotContain("PoliteRunner");
  }

  /** Each kind of throttle (a subpackage of {@code engine.throttle}) keeps to itself. */
  static ArchRule theThrottleKindsDoNotSeeOneAnother(String engine) {
    return slices()
        .matching(engine + ".throttle.(*)..")
        .should()
        .notDependOnEachOther()
        .because("a kind of throttle is reached through the door, never through another kind");
  }

  @Test
  void theThrottleKindsKeepToThemselves() {
    theThrottleKindsDoNotSeeOneAnother("io.taskgate.engine").check(PRODUCTION);
  }

  @Test
  void theKindsRuleCatchesAKindThatReadsAnothersParts() {
    EvaluationResult result =
        theThrottleKindsDoNotSeeOneAnother("io.taskgate.archfixture.door").evaluate(FIXTURE);

    assertThat(String.join("\n", result.getFailureReport().getDetails())).contains("SpotPeeker");
  }

  /**
   * The throttles sit below the engine's run and dispatch, and the method limiters beside them: the
   * limiters never see the task throttles (both use the keyed budgets of {@code engine.budget}).
   */
  static List<ArchRule> theThrottlesLayers(String engine) {
    return List.of(
        noClasses()
            .that()
            .resideInAPackage(engine + ".throttle..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(engine + ".run..", engine + ".dispatch..")
            .because("the engine calls the throttles, never the other way round"),
        noClasses()
            .that()
            .resideInAPackage(engine + ".limiter..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage(engine + ".throttle..")
            .because("method limits and task throttles share the keyed budgets, not each other"));
  }

  @Test
  void theThrottlesSeeNeitherRunNorDispatchAndTheLimitersDoNotSeeTheThrottles() {
    theThrottlesLayers("io.taskgate.engine").forEach(rule -> rule.check(PRODUCTION));
  }

  @Test
  void theLayerRulesCatchAThrottleCallingTheRunnerAndALimiterUsingTheDoor() {
    List<ArchRule> rules = theThrottlesLayers("io.taskgate.archfixture.door");

    assertThat(String.join("\n", rules.get(0).evaluate(FIXTURE).getFailureReport().getDetails()))
        .contains("RunnerCaller");
    assertThat(String.join("\n", rules.get(1).evaluate(FIXTURE).getFailureReport().getDetails()))
        .contains("DoorUser");
  }

  /**
   * OpenTelemetry is named by the trace package alone, and there only by the class that is loaded
   * when tracing is on: off (or on a server without MicroProfile Telemetry), no class of it loads.
   */
  static ArchRule onlyTheSpansNameOpenTelemetry(String trace) {
    return noClasses()
        .that()
        .doNotHaveFullyQualifiedName(trace + ".OtelSpans")
        .and()
        .doNotHaveFullyQualifiedName(trace + ".OtelSpans$1")
        .and()
        .doNotHaveFullyQualifiedName(trace + ".OtelSpans$2")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.opentelemetry..")
        .because("the engine traces through engine.trace, which loads OpenTelemetry only when on");
  }

  @Test
  void onlyTheSpansNameOpenTelemetry() {
    onlyTheSpansNameOpenTelemetry("io.taskgate.engine.trace").check(PRODUCTION);
    // and it can fail: excused elsewhere, the spans themselves break it
    assertThat(
            onlyTheSpansNameOpenTelemetry("io.taskgate.engine.elsewhere")
                .evaluate(PRODUCTION)
                .hasViolation())
        .isTrue();
  }

  /** CDI refuses a normal-scoped bean with a public field (WELD-000075) at deployment. */
  static ArchRule noPublicFieldsInNormalScopedBeans() {
    return fields()
        .that()
        .areDeclaredInClassesThat()
        .areAnnotatedWith(jakarta.enterprise.context.ApplicationScoped.class)
        .and()
        .areNotStatic()
        .should()
        .notBePublic()
        .because("the container refuses a normal-scoped bean with a public field");
  }

  @Test
  void noNormalScopedBeanHasAPublicField() {
    noPublicFieldsInNormalScopedBeans().check(PRODUCTION);
  }

  @Test
  void thePublicFieldRuleCatchesABeanWithOne() {
    assertThat(
            noPublicFieldsInNormalScopedBeans()
                .evaluate(
                    new ClassFileImporter()
                        .importClasses(io.taskgate.archfixture.BeanWithAPublicField.class))
                .hasViolation())
        .isTrue();
  }
}
