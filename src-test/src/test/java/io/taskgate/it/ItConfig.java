package io.taskgate.it;

/** Settings that src-test/pom.xml hands to the ITs as system properties (Failsafe). */
final class ItConfig {

  private ItConfig() {}

  static String required(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          "System property "
              + name
              + " is not set: run the ITs through Maven (mvn verify -pl src-test -am), whose"
              + " Failsafe configuration in src-test/pom.xml sets it");
    }
    return value;
  }
}
