package io.taskgate.test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The test support reaches the engine through its door for code outside the container only. */
class DoorTest {
  private static final JavaClasses SUPPORT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.taskgate.test");

  @Test
  void itUsesTheApiAndTheStandaloneEngineAlone() {
    noClasses()
        .that()
        .resideInAPackage("io.taskgate.test..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.taskgate..")
                .and(resideOutsideOfPackage("io.taskgate.api.."))
                .and(resideOutsideOfPackage("io.taskgate.engine.standalone.."))
                .and(resideOutsideOfPackage("io.taskgate.test..")))
        .because("the engine's parts are reached through engine.standalone, its door for tests")
        .check(SUPPORT);
  }
}
