package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import jakarta.el.ELContext;
import jakarta.el.ELException;
import jakarta.el.ELResolver;
import jakarta.el.ExpressionFactory;
import jakarta.el.PropertyNotFoundException;
import jakarta.el.StandardELContext;
import jakarta.el.ValueExpression;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where a {@link RateLimited} call's key comes from: nowhere (one budget), a {@link RateLimitKey}
 * parameter, a Jakarta EL expression over the arguments, or the caller.
 */
public interface CallKey {

  /** The key of a call with {@code args}; never null. */
  String of(Object[] args);

  /** The key of an unkeyed limiter: every call shares one budget. */
  CallKey NONE = args -> NamedLimiter.NO_KEY;

  /**
   * The key source {@code method} declares.
   *
   * @param caller the caller's key, for {@link RateLimited#CALLER}
   * @throws IllegalArgumentException naming the method: two key sources, or an expression that does
   *     not parse or names no parameter
   */
  static CallKey of(Method method, RateLimited limited, Supplier<String> caller) {
    List<Integer> marked = new ArrayList<>();
    Parameter[] parameters = method.getParameters();
    for (int i = 0; i < parameters.length; i++) {
      if (parameters[i].isAnnotationPresent(RateLimitKey.class)) {
        marked.add(i);
      }
    }
    String expression = limited.key();
    if (marked.size() > 1 || (marked.size() == 1 && !expression.isEmpty())) {
      throw new IllegalArgumentException(
          "@RateLimited method "
              + LimitedMethod.describe(method)
              + " has more than one key: "
              + (expression.isEmpty() ? "" : "key = '" + expression + "' and ")
              + marked.size()
              + " @RateLimitKey parameter(s); keep one");
    }
    if (marked.size() == 1) {
      int index = marked.get(0);
      return args -> String.valueOf(args[index]);
    }
    if (expression.isEmpty()) {
      return NONE;
    }
    if (expression.equals(RateLimited.CALLER)) {
      return args -> caller.get();
    }
    return new Expression(method, expression);
  }

  /** A key computed by a Jakarta EL expression whose identifiers are the method's parameters. */
  final class Expression implements CallKey {
    private static final ExpressionFactory FACTORY = ExpressionFactory.newInstance();

    private final String text;
    private final Map<String, Integer> parameters = new HashMap<>();
    private final ValueExpression expression;

    Expression(Method method, String text) {
      this.text = text;
      Parameter[] declared = method.getParameters();
      for (int i = 0; i < declared.length; i++) {
        parameters.put(declared[i].getName(), i);
      }
      try {
        expression =
            FACTORY.createValueExpression(new StandardELContext(FACTORY), text, Object.class);
        expression.getValue(context(new Object[declared.length])); // every name resolves
      } catch (PropertyNotFoundException e) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + LimitedMethod.describe(method)
                + ": key = '"
                + text
                + "' names no parameter ("
                + e.getMessage()
                + "); its parameters are "
                + parameters.keySet()
                + (Arrays.stream(declared).anyMatch(p -> !p.isNamePresent())
                    ? " (compile with javac -parameters to use their own names)"
                    : ""),
            e);
      } catch (ELException e) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + LimitedMethod.describe(method)
                + ": key = '"
                + text
                + "' is not a valid Jakarta EL expression: "
                + e.getMessage(),
            e);
      }
    }

    @Override
    public String of(Object[] args) {
      Object key = expression.getValue(context(args));
      return String.valueOf(key);
    }

    private ELContext context(Object[] args) {
      StandardELContext context = new StandardELContext(FACTORY);
      context.addELResolver(new Arguments(parameters, args));
      return context;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Resolves the expression's top-level names to the call's arguments. */
  final class Arguments extends ELResolver {
    private final Map<String, Integer> names;
    private final Object[] args;

    Arguments(Map<String, Integer> names, Object[] args) {
      this.names = names;
      this.args = args;
    }

    @Override
    public Object getValue(ELContext context, Object base, Object property) {
      if (base instanceof Record record) {
        return component(context, record, String.valueOf(property));
      }
      if (base != null) {
        return null;
      }
      Integer index = names.get(String.valueOf(property));
      if (index == null) {
        throw new PropertyNotFoundException("'" + property + "' is not a parameter");
      }
      context.setPropertyResolved(true);
      return args[index];
    }

    /** A record's component by name (EL 5 knows only JavaBeans getters). */
    private static Object component(ELContext context, Record record, String name) {
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        if (component.getName().equals(name)) {
          try {
            Method accessor = component.getAccessor();
            accessor.setAccessible(true);
            Object value = accessor.invoke(record);
            context.setPropertyResolved(true);
            return value;
          } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ELException("cannot read " + name + " of " + record.getClass().getName(), e);
          }
        }
      }
      return null; // not a component: a getter or method, for the other resolvers
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
      return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {
      // read only
    }

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
      return true;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
      return base == null ? Object.class : null;
    }
  }
}
