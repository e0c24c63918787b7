#!/usr/bin/env python3
"""While a backlog drains, asks Taskgate once a second what an operator would ask, and times it.

Usage: drain-probe.py BASE_URL [LEFT_WHEN_DONE] [TIMEOUT_S]   (BASE_URL e.g. http://localhost:27180/taskgate)

Every second: GET /api/tasks?size=1 and GET /api/overview (HTTP Basic, user admin), the overview
page (form login once, then the session), and the number of QUEUED + IN_PROGRESS tasks (GET
/api/tasks?status=…&size=1, untimed). Stops when LEFT_WHEN_DONE (default 1: the example WAR's
recurring heartbeat) or fewer are left.
Prints one line per probe and a summary: the drain rate, the probes after which no task had left
the backlog, and p50 / p99 / max of each timed request. Never part of `mvn verify`.
"""
import base64, http.cookiejar, json, re, sys, time, urllib.parse, urllib.request

base = sys.argv[1].rstrip('/')
done_at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 900
basic = 'Basic ' + base64.b64encode(b'admin:taskgate').decode()
jar = http.cookiejar.CookieJar()
browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def api(path):
    req = urllib.request.Request(base + path, headers={'Authorization': basic, 'Accept': 'application/json'})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def timed(fn):
    t = time.monotonic()
    fn()
    return (time.monotonic() - t) * 1000


def log_in():
    page = browser.open(base + '/login.xhtml', timeout=60).read().decode()
    state = re.search(r'name="jakarta.faces.ViewState"[^>]*value="([^"]+)"', page).group(1)
    csrf = re.search(r'name="_csrf"[^>]*value="([^"]+)"', page).group(1)  # the CSRF filter's token
    form = urllib.parse.urlencode({'login': 'login', 'login:username': 'admin', 'login:password': 'taskgate',
                                   'login:submit': 'Log in', 'jakarta.faces.ViewState': state,
                                   '_csrf': csrf}).encode()
    browser.open(base + '/login.xhtml', form, timeout=60).read()


def overview_page():
    body = browser.open(base + '/admin/overview.xhtml', timeout=60).read().decode()
    if 'login:username' in body:
        raise RuntimeError('the overview page asked for a login')


def left():
    n = 0
    for status in ('QUEUED', 'IN_PROGRESS'):
        n += api('/api/tasks?status=%s&size=1' % status)['total']
    return n


log_in()
times = {'tasks': [], 'overview': [], 'page': []}
t0 = time.monotonic()
remaining, stalls, seconds = left(), 0, 0
start_remaining = remaining
print('left at start: %d' % remaining, flush=True)
while remaining > done_at and time.monotonic() - t0 < timeout:
    tick = time.monotonic()
    times['tasks'].append(timed(lambda: api('/api/tasks?size=1')))
    times['overview'].append(timed(lambda: api('/api/overview')))
    times['page'].append(timed(overview_page))
    time.sleep(max(0.0, 1 - (time.monotonic() - tick)))
    now_left = left()
    seconds += 1
    if now_left >= remaining:
        stalls += 1
    print('%6.1f s  left %7d  (-%5d)  tasks %6.0f ms  overview %6.0f ms  page %6.0f ms' % (
        time.monotonic() - t0, now_left, remaining - now_left, times['tasks'][-1], times['overview'][-1],
        times['page'][-1]), flush=True)
    remaining = now_left
elapsed = time.monotonic() - t0


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p * len(s))) - 1))]


print('drained %d tasks in %.1f s: %.0f tasks/s; probes (about a second apart, longer when the answers are slow)'
      ' after which none had left the backlog: %d of %d' % (
    start_remaining - remaining, elapsed, (start_remaining - remaining) / elapsed, stalls, seconds))
for name, values in times.items():
    print('%-9s p50 %6.0f ms  p99 %6.0f ms  max %6.0f ms' % (name, pct(values, .5), pct(values, .99), max(values)))
