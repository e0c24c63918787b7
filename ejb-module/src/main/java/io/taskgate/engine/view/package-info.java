/**
 * The throttled view: a read-only facade ({@link io.taskgate.engine.view.ThrottleViews}) over the
 * engine, the rate limiter and the store for the REST API and the admin pages, and the live
 * monitoring stream ({@link io.taskgate.engine.view.MonitorFeed}). It answers in records built for
 * display (rows, pages, counters), never stored entities, and stays cheap with 100 000 tracked
 * keys: key lists are filtered, ordered and bounded inside the limiter, parked tasks are read
 * without a copy. May depend on the engine, the core and the store SPI.
 */
package io.taskgate.engine.view;
