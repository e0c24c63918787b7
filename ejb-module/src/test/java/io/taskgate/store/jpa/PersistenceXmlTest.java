package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The unit tests run on {@code taskgate-test}; this checks that the container's unit, which they do
 * not run, stays what the container needs, and lists the same classes as the test unit.
 */
class PersistenceXmlTest {

  @Test
  void theContainerUnitIsJtaOnTheDefaultDatasourceWithTheStoreEntities() throws Exception {
    Element unit = unit("META-INF/persistence.xml");

    assertThat(unit.getAttribute("name")).isEqualTo("taskgate");
    assertThat(unit.getAttribute("transaction-type")).isEqualTo("JTA");
    assertThat(text(unit, "jta-data-source")).containsExactly("jdbc/__default");
    assertThat(text(unit, "class"))
        .containsExactly(
            TaskEntity.class.getName(),
            TaskAuditEntity.class.getName(),
            InstanceEntity.class.getName(),
            ThrottlerEntity.class.getName(),
            ThrottlerChangeEntity.class.getName(),
            WindowCountEntity.class.getName(),
            RateOverrideEntity.class.getName(),
            MinuteCountEntity.class.getName(),
            PauseEntity.class.getName(),
            UniqueEntity.class.getName(),
            RateBudgetEntity.class.getName(),
            BudgetMarkEntity.class.getName());
    assertThat(text(unit, "exclude-unlisted-classes")).containsExactly("true");
    assertThat(text(unit, "shared-cache-mode")).containsExactly("NONE");
    assertThat(properties(unit))
        .as("no tables generated from the entities: the migrations make them")
        .doesNotContainKeys(
            "eclipselink.ddl-generation", "jakarta.persistence.schema-generation.database.action")
        .containsEntry("eclipselink.logging.level", "WARNING");
  }

  @Test
  void theTestUnitIsResourceLocalWithTheSameClasses() throws Exception {
    Element main = unit("META-INF/persistence.xml");
    Element test = unit(TaskStoreContract.TEST_PERSISTENCE_XML);

    assertThat(test.getAttribute("name")).isEqualTo(TaskStoreContract.TEST_UNIT);
    assertThat(test.getAttribute("transaction-type")).isEqualTo("RESOURCE_LOCAL");
    assertThat(text(test, "jta-data-source")).isEmpty();
    assertThat(text(test, "class")).isEqualTo(text(main, "class"));
    assertThat(properties(test)).doesNotContainKey("eclipselink.ddl-generation");
  }

  private static Element unit(String resource) throws Exception {
    try (InputStream in = PersistenceXmlTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      Document doc = factory.newDocumentBuilder().parse(in);
      NodeList units = doc.getElementsByTagNameNS("*", "persistence-unit");
      assertThat(units.getLength()).as("persistence units in " + resource).isEqualTo(1);
      return (Element) units.item(0);
    }
  }

  private static List<String> text(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagNameNS("*", tag);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      texts.add(nodes.item(i).getTextContent().trim());
    }
    return texts;
  }

  private static Map<String, String> properties(Element unit) {
    NodeList nodes = unit.getElementsByTagNameNS("*", "property");
    Map<String, String> properties = new HashMap<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element property = (Element) nodes.item(i);
      properties.put(property.getAttribute("name"), property.getAttribute("value"));
    }
    return properties;
  }
}
