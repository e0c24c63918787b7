package io.taskgate.engine;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** A CDI {@link Event} that records what is fired synchronously; nothing else is used. */
public final class RecordingEvent<T> implements Event<T> {
  public final List<T> fired = new ArrayList<>();
  public RuntimeException observerFailure;

  @Override
  public void fire(T event) {
    fired.add(event);
    if (observerFailure != null) {
      throw observerFailure;
    }
  }

  @Override
  public <U extends T> CompletionStage<U> fireAsync(U event) {
    throw new AssertionError("the engine fires synchronously");
  }

  @Override
  public <U extends T> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
    throw new AssertionError("the engine fires synchronously");
  }

  @Override
  public Event<T> select(Annotation... qualifiers) {
    throw new AssertionError("the engine fires without qualifiers");
  }

  @Override
  public <U extends T> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
    throw new AssertionError("the engine fires without qualifiers");
  }

  @Override
  public <U extends T> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
    throw new AssertionError("the engine fires without qualifiers");
  }
}
