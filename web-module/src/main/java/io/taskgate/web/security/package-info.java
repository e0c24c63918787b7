/**
 * Who may use the API: HTTP Basic authentication (Jakarta Security) against users defined in
 * MicroProfile Config; the URL constraints and the role are in WEB-INF/web.xml. May depend on the
 * Jakarta EE and MicroProfile APIs only.
 */
package io.taskgate.web.security;
