package io.taskgate.web.admin;

import io.taskgate.engine.admin.dto.Pacing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The pacing of one key drawn as an SVG timeline (coordinates only; the page writes the elements,
 * escaped) over a fixed window around now: recent starts on the upper lane, slots reserved when
 * tasks were deferred on the middle lane, the slots parked tasks wait for on the lower lane, a line
 * at now and one at the key's next slot. Marks that would overlap are binned: a bin holding one
 * mark draws it, a bin holding more draws a bar as high as its share of the lane's fullest bin, so
 * 10,000 parked tasks draw at most {@link #BINS} shapes a lane. The axis is relative to now at
 * fixed steps, so it stays put across refreshes while the marks move left.
 *
 * @param width the drawing's width in px
 * @param height the drawing's height in px
 * @param window the window shown
 * @param started the starts in the window
 * @param reserved reservations made when tasks were deferred, at their slots, in the window
 * @param parked the slots of parked tasks in the window
 * @param ticks the time axis' labels
 * @param nowX where now is
 * @param nextSlotX where the next free slot is; negative when the key has budget now or it lies
 *     beyond the window
 * @param parkedLater parked tasks whose slots lie beyond the window
 * @param lastParked the latest slot of a parked task; null when none is parked
 */
public record Timeline(
    int width,
    int height,
    Window window,
    List<Mark> started,
    List<Mark> reserved,
    List<Mark> parked,
    List<Tick> ticks,
    double nowX,
    double nextSlotX,
    int parkedLater,
    Instant lastParked) {
  static final int WIDTH = 1000;
  static final int HEIGHT = 180;
  static final int LEFT = 90;
  static final int RIGHT = 50;
  static final int STARTED_Y = 45;
  static final int RESERVED_Y = 85;
  static final int PARKED_Y = 125;
  static final int AXIS_Y = 150;

  /** Bins a lane: about 7 px each. */
  static final int BINS = 120;

  /** The tallest bar, in px. */
  static final int BAR = 30;

  /**
   * The windows a timeline shows: how far back and ahead of now, and the step of the axis.
   *
   * @see #parse
   */
  public enum Window {
    ONE_MINUTE(
        "1m", "1 min", Duration.ofSeconds(10), Duration.ofSeconds(50), Duration.ofSeconds(10)),
    TEN_MINUTES(
        "10m", "10 min", Duration.ofMinutes(1), Duration.ofMinutes(9), Duration.ofMinutes(1)),
    ONE_HOUR("1h", "1 h", Duration.ofMinutes(10), Duration.ofMinutes(50), Duration.ofMinutes(10));

    private final String parameter;
    private final String label;
    private final Duration back;
    private final Duration ahead;
    private final Duration step;

    Window(String parameter, String label, Duration back, Duration ahead, Duration step) {
      this.parameter = parameter;
      this.label = label;
      this.back = back;
      this.ahead = ahead;
      this.step = step;
    }

    /** Its name in the page's query: {@code 1m}, {@code 10m}, {@code 1h}. */
    public String parameter() {
      return parameter;
    }

    /** How the page names it: {@code 1 min}, {@code 10 min}, {@code 1 h}. */
    public String label() {
      return label;
    }

    /** The window named {@code parameter}, if any. */
    public static Optional<Window> parse(String parameter) {
      for (Window window : values()) {
        if (window.parameter.equals(parameter)) {
          return Optional.of(window);
        }
      }
      return Optional.empty();
    }

    /** The smallest window that shows every parked slot, or the largest. */
    static Window fitting(Pacing pacing) {
      Instant last = pacing.parkedSlots().isEmpty() ? null : pacing.parkedSlots().get(0);
      for (Instant slot : pacing.parkedSlots()) {
        last = slot.isAfter(last) ? slot : last;
      }
      for (Window window : values()) {
        if (last == null || !last.isAfter(pacing.at().plus(window.ahead))) {
          return window;
        }
      }
      return ONE_HOUR;
    }
  }

  /**
   * One mark: a single one, or a bar standing for several in one bin.
   *
   * @param x its position (a bar's left edge)
   * @param y its lane's line (a bar stands on it)
   * @param count how many it stands for
   * @param barWidth a bar's width; 0 for a single mark
   * @param barHeight a bar's height; 0 for a single mark
   * @param title what a tooltip says
   */
  public record Mark(
      double x, double y, int count, double barWidth, double barHeight, String title) {
    /** Whether it is a bar standing for several. */
    public boolean bar() {
      return count > 1;
    }
  }

  /**
   * One axis label.
   *
   * @param x its position
   * @param label the time relative to now
   * @param anchor how the label sits on its tick: {@code start}, {@code middle}, {@code end}
   */
  public record Tick(double x, String label, String anchor) {}

  /** The timeline of {@code pacing} over the smallest window that shows every parked task. */
  static Timeline of(Pacing pacing) {
    return of(pacing, Window.fitting(pacing));
  }

  /** The timeline of {@code pacing} over {@code window}. */
  static Timeline of(Pacing pacing, Window window) {
    Instant now = pacing.at();
    Scale scale = new Scale(now.minus(window.back), now.plus(window.ahead));

    List<Instant> starts = new ArrayList<>();
    List<Instant> reservations = new ArrayList<>();
    for (Pacing.Mark mark : pacing.marks()) {
      if ("STARTED".equals(mark.kind())) {
        starts.add(mark.at());
      } else if ("RESERVED".equals(mark.kind()) && mark.slot() != null) {
        reservations.add(mark.slot());
      }
    }
    int later = 0;
    Instant lastParked = null;
    for (Instant slot : pacing.parkedSlots()) {
      if (slot.isAfter(scale.to())) {
        later++;
      }
      lastParked = lastParked == null || slot.isAfter(lastParked) ? slot : lastParked;
    }
    List<Tick> ticks = new ArrayList<>();
    long steps = window.back.plus(window.ahead).dividedBy(window.step);
    for (long i = 0; i <= steps; i++) {
      Instant at = scale.from().plus(window.step.multipliedBy(i));
      String anchor = i == 0 ? "start" : i == steps ? "end" : "middle";
      ticks.add(new Tick(scale.x(at), relative(Duration.between(now, at)), anchor));
    }
    return new Timeline(
        WIDTH,
        HEIGHT,
        window,
        lane(starts, scale, STARTED_Y, "started", now),
        lane(reservations, scale, RESERVED_Y, "slot reserved", now),
        lane(pacing.parkedSlots(), scale, PARKED_Y, "parked until", now),
        ticks,
        scale.x(now),
        pacing.nextSlot() == null || pacing.nextSlot().isAfter(scale.to())
            ? -1
            : scale.x(pacing.nextSlot()),
        later,
        lastParked);
  }

  /** The marks of one lane: those in the window, binned. */
  private static List<Mark> lane(
      List<Instant> times, Scale scale, double y, String what, Instant now) {
    int[] counts = new int[BINS];
    Instant[] first = new Instant[BINS];
    Instant[] last = new Instant[BINS];
    for (Instant at : times) {
      if (at.isBefore(scale.from()) || at.isAfter(scale.to())) {
        continue;
      }
      int bin = scale.bin(at);
      counts[bin]++;
      first[bin] = first[bin] == null || at.isBefore(first[bin]) ? at : first[bin];
      last[bin] = last[bin] == null || at.isAfter(last[bin]) ? at : last[bin];
    }
    int fullest = 1;
    for (int count : counts) {
      fullest = Math.max(fullest, count);
    }
    List<Mark> marks = new ArrayList<>();
    for (int bin = 0; bin < BINS; bin++) {
      if (counts[bin] == 1) {
        marks.add(
            new Mark(
                scale.x(first[bin]),
                y,
                1,
                0,
                0,
                what + " " + relative(Duration.between(now, first[bin]))));
      } else if (counts[bin] > 1) {
        double height = Math.max(6, Math.round(BAR * Math.sqrt((double) counts[bin] / fullest)));
        marks.add(
            new Mark(
                scale.binX(bin),
                y,
                counts[bin],
                Math.max(2, scale.binWidth() - 1),
                height,
                counts[bin]
                    + " "
                    + what
                    + " "
                    + relative(Duration.between(now, first[bin]))
                    + " to "
                    + relative(Duration.between(now, last[bin]))));
      }
    }
    return marks;
  }

  /** The right end of the drawing area. */
  public int right() {
    return WIDTH - RIGHT;
  }

  /** The left end of the drawing area. */
  public int left() {
    return LEFT;
  }

  /** Every shape drawn: a bound the page keeps whatever the number of parked tasks. */
  public int shapes() {
    return started.size() + reserved.size() + parked.size();
  }

  private record Scale(Instant from, Instant to) {
    double span() {
      return Math.max(1, Duration.between(from, to).toMillis());
    }

    double x(Instant at) {
      double offset = Duration.between(from, at).toMillis();
      double x = LEFT + (WIDTH - LEFT - RIGHT) * offset / span();
      return Math.round(Math.max(LEFT, Math.min(WIDTH - RIGHT, x)) * 10) / 10.0;
    }

    int bin(Instant at) {
      double offset = Duration.between(from, at).toMillis();
      return (int) Math.max(0, Math.min(BINS - 1, Math.floor(offset / span() * BINS)));
    }

    double binWidth() {
      return (double) (WIDTH - LEFT - RIGHT) / BINS;
    }

    double binX(int bin) {
      return Math.round((LEFT + bin * binWidth()) * 10) / 10.0;
    }
  }

  /** {@code now}, {@code in 2 min}, {@code 30 s ago}, {@code in 1 min 30 s}. */
  static String relative(Duration offset) {
    long millis = offset.toMillis();
    if (Math.abs(millis) < 500) {
      return "now";
    }
    long seconds = Math.round(Math.abs(millis) / 1000.0);
    String amount;
    if (seconds < 60) {
      amount = seconds + " s";
    } else if (seconds < 3600) {
      amount = seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
    } else {
      amount =
          seconds / 3600
              + " h"
              + (seconds % 3600 / 60 == 0 ? "" : " " + seconds % 3600 / 60 + " min");
    }
    return String.format(Locale.ROOT, millis > 0 ? "in %s" : "%s ago", amount);
  }
}
