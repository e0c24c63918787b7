package io.taskgate.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The interceptor binding that {@link TaskHandler} carries: it binds Taskgate's handler interceptor
 * to every handler. Applications use {@link TaskHandler}, not this.
 */
@InterceptorBinding
@Inherited
@Retention(RUNTIME)
@Target(TYPE)
public @interface HandlerInterception {}
