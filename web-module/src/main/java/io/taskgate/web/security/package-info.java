/**
 * Who may use Taskgate: one Jakarta Security authentication mechanism (HTTP Basic for the REST API,
 * form login with a session for the admin pages) against users defined in MicroProfile Config, the
 * login page's bean, and the CSRF token of every page form; the URL constraints and the roles are
 * in WEB-INF/web.xml. May depend on the Jakarta EE and MicroProfile APIs only.
 */
package io.taskgate.web.security;
