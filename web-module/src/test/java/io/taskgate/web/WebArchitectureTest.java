package io.taskgate.web;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The web module reaches the engine through its facades only ({@code io.taskgate.engine.admin}),
 * never the store or the engine's inside, and reads no clock of its own. Each rule is also run
 * against a class that breaks it.
 */
class WebArchitectureTest {
  static final JavaClasses WEB =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.taskgate.web");

  static final JavaClasses FIXTURE =
      new ClassFileImporter().importPackages("io.taskgate.web.archfixture");

  static ArchRule onlyTheFacades() {
    return noClasses()
        .that()
        .resideInAPackage("io.taskgate.web..")
        .should()
        .dependOnClassesThat(
            resideInAnyPackage("io.taskgate.store..", "io.taskgate.engine..")
                .and(
                    com.tngtech.archunit.base.DescribedPredicate.not(
                        resideInAPackage("io.taskgate.engine.admin.."))))
        .because("the web module uses the API, the core and the engine's facades (engine.admin)");
  }

  static ArchRule noClockReads() {
    return noClasses()
        .that()
        .resideInAPackage("io.taskgate.web..")
        .should()
        .accessTargetWhere(
            describe(
                "reads a system clock",
                (JavaAccess<?> access) -> {
                  String owner = access.getTargetOwner().getName();
                  String name = access.getName();
                  return (owner.equals("java.lang.System")
                          && (name.equals("currentTimeMillis") || name.equals("nanoTime")))
                      || (owner.startsWith("java.time.") && name.equals("now"))
                      || (owner.equals("java.time.Clock") && name.startsWith("system"))
                      || (owner.equals("java.time.InstantSource") && name.equals("system"));
                }))
        .because("time comes from the engine's injected clocks, so that tests can move it");
  }

  @Test
  void theWebModuleUsesTheEnginesFacadesOnly() {
    onlyTheFacades().check(WEB);
  }

  @Test
  void theWebModuleReadsNoClockOfItsOwn() {
    noClockReads().check(WEB);
  }

  @Test
  void bothRulesCatchAClassThatBreaksThem() {
    assertThat(onlyTheFacades().evaluate(FIXTURE).hasViolation()).isTrue();
    assertThat(noClockReads().evaluate(FIXTURE).hasViolation()).isTrue();
  }
}
