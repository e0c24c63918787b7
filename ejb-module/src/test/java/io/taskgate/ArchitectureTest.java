package io.taskgate;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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

  private static com.tngtech.archunit.base.DescribedPredicate<JavaAccess<?>> readsAClock() {
    return describe(
        "reads a clock (System.currentTimeMillis/nanoTime, java.time now(), Clock.system…)",
        access -> {
          String owner = access.getTargetOwner().getName();
          String name = access.getName();
          return (owner.equals("java.lang.System")
                  && (name.equals("currentTimeMillis") || name.equals("nanoTime")))
              || (owner.startsWith("java.time.") && name.equals("now"))
              || (owner.equals("java.time.Clock") && name.startsWith("system"))
              || owner.equals("java.time.InstantSource");
        });
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

  @Test
  void onlyTheClockProducerReadsTheWallClock() {
    noClasses()
        .that()
        .resideInAPackage("io.taskgate..")
        .and()
        .doNotHaveFullyQualifiedName("io.taskgate.engine.ClockProducer")
        .should()
        .accessTargetWhere(readsTheWallClock())
        .because("the engine has one clock, an injected InstantSource, so that tests can move it")
        .check(PRODUCTION);
  }

  @Test
  void theWallClockRuleCatchesTheClassThatBreaksIt() {
    assertThat(
            noClasses()
                .should()
                .accessTargetWhere(readsTheWallClock())
                .evaluate(FIXTURE)
                .hasViolation())
        .isTrue();
  }

  /** Like {@link #readsAClock()} but allows {@code System.nanoTime}, which measures intervals. */
  private static com.tngtech.archunit.base.DescribedPredicate<JavaAccess<?>> readsTheWallClock() {
    return describe(
        "reads the wall clock (System.currentTimeMillis, java.time now(), Clock.system…,"
            + " InstantSource.system)",
        access -> {
          String owner = access.getTargetOwner().getName();
          String name = access.getName();
          return (owner.equals("java.lang.System") && name.equals("currentTimeMillis"))
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
}
