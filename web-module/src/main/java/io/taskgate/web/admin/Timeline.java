package io.taskgate.web.admin;

import io.taskgate.engine.admin.dto.Pacing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pacing of one key drawn as an SVG timeline (coordinates only; the page writes the elements,
 * escaped): recent starts on the upper lane, reserved slots of deferred tasks on the middle lane,
 * the slots parked tasks wait for on the lower lane, a line at now and one at the key's next slot.
 *
 * @param width the drawing's width in px
 * @param height the drawing's height in px
 * @param started the starts: a dot each (late starts carry their lateness in the title)
 * @param reserved reservations made when tasks were deferred, at their slots
 * @param parked the slots of parked tasks
 * @param ticks the time axis' labels
 * @param nowX where now is
 * @param nextSlotX where the next free slot is; negative when the key has budget now
 */
public record Timeline(
    int width,
    int height,
    List<Point> started,
    List<Point> reserved,
    List<Point> parked,
    List<Tick> ticks,
    double nowX,
    double nextSlotX) {
  static final int WIDTH = 1000;
  static final int HEIGHT = 170;
  static final int LEFT = 90;
  static final int RIGHT = 20;
  static final int STARTED_Y = 40;
  static final int RESERVED_Y = 80;
  static final int PARKED_Y = 120;
  static final int AXIS_Y = 150;

  /**
   * One mark.
   *
   * @param x its position
   * @param y its lane
   * @param title what a tooltip says
   */
  public record Point(double x, double y, String title) {}

  /**
   * One axis label.
   *
   * @param x its position
   * @param label the time relative to now
   */
  public record Tick(double x, String label) {}

  /**
   * The timeline of {@code pacing}: from its oldest mark (at most 2 minutes back) to its last slot.
   */
  static Timeline of(Pacing pacing) {
    Instant now = pacing.at();
    Instant from = now.minusSeconds(10);
    Instant to = now.plusSeconds(5);
    for (Pacing.Mark mark : pacing.marks()) {
      from = min(from, mark.at());
      if (mark.slot() != null) {
        to = max(to, mark.slot());
      }
    }
    for (Instant slot : pacing.parkedSlots()) {
      to = max(to, slot);
    }
    if (pacing.nextSlot() != null) {
      to = max(to, pacing.nextSlot());
    }
    from = max(from, now.minus(Duration.ofMinutes(2)));
    Duration span = Duration.between(from, to);
    to = to.plus(span.dividedBy(20)); // a margin after the last mark
    Scale scale = new Scale(from, to);

    List<Point> started = new ArrayList<>();
    List<Point> reserved = new ArrayList<>();
    for (Pacing.Mark mark : pacing.marks()) {
      if ("STARTED".equals(mark.kind()) && !mark.at().isBefore(from)) {
        started.add(
            new Point(
                scale.x(mark.at()),
                STARTED_Y,
                "started "
                    + relative(mark.at(), now)
                    + (mark.lateness() == null
                        ? ""
                        : ", " + mark.lateness().toMillis() + " ms after its slot")));
      } else if ("RESERVED".equals(mark.kind()) && mark.slot() != null) {
        reserved.add(
            new Point(
                scale.x(max(mark.slot(), from)),
                RESERVED_Y,
                "slot " + relative(mark.slot(), now) + ", reserved " + relative(mark.at(), now)));
      }
    }
    List<Point> parked = new ArrayList<>();
    for (Instant slot : pacing.parkedSlots()) {
      parked.add(new Point(scale.x(slot), PARKED_Y, "parked until " + relative(slot, now)));
    }
    List<Tick> ticks = new ArrayList<>();
    for (int i = 0; i <= 6; i++) {
      Instant at = from.plus(Duration.between(from, to).multipliedBy(i).dividedBy(6));
      ticks.add(new Tick(scale.x(at), relative(at, now)));
    }
    return new Timeline(
        WIDTH,
        HEIGHT,
        started,
        reserved,
        parked,
        ticks,
        scale.x(now),
        pacing.nextSlot() == null ? -1 : scale.x(pacing.nextSlot()));
  }

  /** The right end of the drawing area. */
  public int getRight() {
    return WIDTH - RIGHT;
  }

  /** The left end of the drawing area. */
  public int getLeft() {
    return LEFT;
  }

  private record Scale(Instant from, Instant to) {
    double x(Instant at) {
      double total = Math.max(1, Duration.between(from, to).toMillis());
      double offset = Duration.between(from, at).toMillis();
      double x = LEFT + (WIDTH - LEFT - RIGHT) * offset / total;
      return Math.round(Math.max(LEFT, Math.min(WIDTH - RIGHT, x)) * 10) / 10.0;
    }
  }

  private static String relative(Instant at, Instant now) {
    long millis = Duration.between(now, at).toMillis();
    if (Math.abs(millis) < 50) {
      return "now";
    }
    return String.format(Locale.ROOT, "%+.1f s", millis / 1000.0);
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
