#!/usr/bin/env bash
# A restart with a backlog: N queued tasks (default 100,000, 100 x the default queue capacity) are
# stored in PostgreSQL (or, with BACKLOG_DB=h2, in the embedded H2 file database of
# server-config/datasource-h2.asadmin) as if a server had been killed with them queued, then Payara
# Micro starts with the WAR and default settings. Prints the seconds until the application answered
# and until the store held no queued task; while it drains, drain-probe.py times the task list, the
# overview (REST and page) once a second and counts the seconds in which no task completed.
# Never part of `mvn verify`.
#   ./mvnw -pl web-module -am package -DskipTests
#   ./mvnw dependency:copy -Dartifact=fish.payara.extras:payara-micro:6.2025.10 -DoutputDirectory=target
#   ./mvnw dependency:copy -Dartifact=org.postgresql:postgresql:42.7.13 -DoutputDirectory=target
#   src-test/src/load/scripts/backlog-restart.sh [tasks]
# BACKLOG_JVM adds options to Micro's JVM (e.g. a JFR recording).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
tasks="${1:-100000}"
db=taskgate_backlog
kind="${BACKLOG_DB:-postgresql}"
port="${BACKLOG_PORT:-27180}"
micro=target/payara-micro-6.2025.10.jar
driver=target/postgresql-42.7.13.jar
war="${BACKLOG_WAR:-web-module/target/taskgate.war}"   # another build: BACKLOG_WAR=…
answer_timeout="${BACKLOG_ANSWER_TIMEOUT:-600}"   # seconds
out=target/backlog-restart
# The tasks are this instance's, as a crashed server leaves them (a restart keeps its identity).
instance=backlog-restart
mkdir -p "$out"
psql() { command psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ "$kind" = h2 ]; then
  h2dir="$(pwd)/$out/h2"
  rm -rf "$h2dir"; mkdir -p "$h2dir"
  unzip -o -q "$micro" MICRO-INF/runtime/h2.jar -d "$out"   # the H2 that Payara Micro embeds
  h2sql() { java -cp "$out/MICRO-INF/runtime/h2.jar" org.h2.tools.Shell -url "jdbc:h2:$h2dir/taskgate" -user "" -password "" -sql "$1"; }
else
  psql -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
  sed "s/^taskgate.db.name=.*/taskgate.db.name=$db/" server-config/postgresql.properties > "$out/postgresql.properties"
fi

start_micro() {
  if [ "$kind" = h2 ]; then
    java -Xms1g -Xmx1g ${BACKLOG_JVM:-} "-Dtaskgate.cluster.instance-id=$instance" "-Dtaskgate.h2.dir=$h2dir" -jar "$micro" --nohazelcast --port "$port" \
      --postbootcommandfile server-config/datasource-h2.asadmin \
      --deploy "$war" --contextroot taskgate > "$1" 2>&1 &
  else
    java -Xms1g -Xmx1g ${BACKLOG_JVM:-} "-Dtaskgate.cluster.instance-id=$instance" -jar "$micro" --nohazelcast --port "$port" --addlibs "$driver" \
      --systemproperties "$out/postgresql.properties" \
      --postbootcommandfile server-config/datasource-postgresql.asadmin \
      --deploy "$war" --contextroot taskgate > "$1" 2>&1 &
  fi
  echo $!
}
answering() { curl -sf -o /dev/null "http://localhost:$port/taskgate/api/info"; }

# 1. a first boot creates the tables; then it is killed
pid=$(start_micro "$out/boot-1.log")
until answering; do sleep 1; done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true

# 2. the backlog, as tasks queued and due
if [ "$kind" = h2 ]; then
  h2sql "DELETE FROM taskgate_task_audit; DELETE FROM taskgate_task;
    INSERT INTO taskgate_task (id, type, payload, status, queue, task_key, scheduled_at, attempt,
      last_error, recurrence, runs, created_at, updated_at, version, owner_instance)
    SELECT RANDOM_UUID()::VARCHAR, 'io.taskgate.web.examples.Heartbeat', '{}', 'QUEUED', 'default',
      NULL, CURRENT_TIMESTAMP - INTERVAL '1' MINUTE, 0, NULL, NULL, 0, CURRENT_TIMESTAMP,
      CURRENT_TIMESTAMP, 0, '$instance' FROM SYSTEM_RANGE(1, $tasks)"
  echo "stored $tasks queued tasks in $h2dir"
else
  psql -d "$db" -c "DELETE FROM taskgate_task_audit" -c "DELETE FROM taskgate_task" -c "
    INSERT INTO taskgate_task (id, type, payload, status, queue, task_key, scheduled_at, attempt,
      last_error, recurrence, runs, created_at, updated_at, version, owner_instance)
    SELECT gen_random_uuid()::text, 'io.taskgate.web.examples.Heartbeat', '{}', 'QUEUED', 'default',
      NULL, now() - interval '1 minute', 0, NULL, NULL, 0, now(), now(), 0, '$instance'
    FROM generate_series(1, $tasks)"
  echo "stored $(psql -d "$db" -c "SELECT count(*) FROM taskgate_task WHERE status = 'QUEUED'") queued tasks"
fi

# 3. the restart, measured from the process start
t0=$(date +%s.%N)
pid=$(start_micro "$out/boot-2.log")
trap 'kill -9 "$pid" 2>/dev/null || true' EXIT
until answering; do
  sleep 0.2
  if [ "$(echo "$(date +%s.%N) - $t0 > $answer_timeout" | bc)" = 1 ]; then
    kill -9 "$pid"
    echo "backlog $tasks on $kind: not answering after $answer_timeout s"
    exit 1
  fi
done
t1=$(date +%s.%N)
python3 src-test/src/load/scripts/drain-probe.py "http://localhost:$port/taskgate" 1 "$answer_timeout" \
  | tee "$out/drain-$kind.log"
t2=$(date +%s.%N)
kill "$pid"; wait "$pid" 2>/dev/null || true
printf 'backlog %s on %s: answering after %.1f s, drained after %.1f s\n' \
  "$tasks" "$kind" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t0" | bc)"
