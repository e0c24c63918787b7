package io.taskgate.web.monitor;

import org.eclipse.microprofile.metrics.Metadata;

/** The metadata every Taskgate metric is registered with: its name, description and unit. */
final class MetricMetadata {
  private MetricMetadata() {}

  static Metadata of(String name, String description, String unit) {
    return Metadata.builder().withName(name).withDescription(description).withUnit(unit).build();
  }
}
