#!/usr/bin/env bash
# withTestServices.sh COMMAND...: runs COMMAND (step 6 of scripts/test.sh) with PostgreSQL and Redis for the
# scale-out tests, exported as FULCRUM_TEST_PG_URL and FULCRUM_TEST_REDIS_URL (read by the gateway test harness).
# For each of the two (scripts/requireServices.mjs decides):
#   - the variable is set: that server is used; if it does not answer, fail plainly (never second-guessed);
#   - unset, and something answers on the default address (127.0.0.1:5432 / 6379): that one is used;
#   - unset, and nothing answers: a private throwaway server is started (Debian's postgresql / redis-server,
#     installed with apt-get when missing) in a temp dir, on a free port on 127.0.0.1 (PostgreSQL: trust auth,
#     database `test`), and stopped and removed when COMMAND ends: on success, failure, Ctrl-C or SIGTERM.
# Exits with COMMAND's status. Hand-written: starting and removing a private cluster is a few commands of the
# servers' own tools (initdb, pg_ctl, redis-server), which no library wraps for a shell script.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[test services] %s\n' "$*" >&2; }

probe=$(node scripts/requireServices.mjs) # exits 1, having said why, when a set variable does not answer
read -r _ pg_how pg_url <<< "$(grep '^postgres ' <<< "$probe")"
read -r _ redis_how redis_url <<< "$(grep '^redis ' <<< "$probe")"

workdir="" pg_bin="" pg_data="" redis_pid="" child=""

free_port() {
  node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

# initdb and postgres refuse to run as root: as root, they run as the `postgres` system user (Debian's package
# creates it; created here if missing).
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "$child" ] && kill -0 "$child" 2> /dev/null; then
    kill -TERM "$child" 2> /dev/null || true
    wait "$child" 2> /dev/null || true
  fi
  if [ -n "$pg_data" ] && [ -f "$pg_data/postmaster.pid" ]; then
    as_pg "$pg_bin/pg_ctl" -D "$pg_data" -m fast -w stop > /dev/null 2>&1 || true
  fi
  if [ -n "$redis_pid" ]; then
    kill -TERM "$redis_pid" 2> /dev/null || true
    for _ in $(seq 100); do kill -0 "$redis_pid" 2> /dev/null || break; sleep 0.05; done
  fi
  if [ -n "$workdir" ]; then
    rm -rf "$workdir"
    say "private servers stopped; $workdir removed"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$pg_how" = absent ] || [ "$redis_how" = absent ]; then
  started=$(date +%s%N)
  bash scripts/ensureSystemPackages.sh servers
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/fulcrum-test-services.XXXXXX")
  chmod 755 "$workdir"
  say "workdir $workdir"
fi

if [ "$pg_how" = absent ]; then
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  if [ "$(id -u)" = 0 ] && ! id postgres > /dev/null 2>&1; then useradd --system --user-group --no-create-home postgres; fi
  pg_data="$workdir/postgres"
  mkdir -m 700 "$pg_data"
  [ "$(id -u)" = 0 ] && chown postgres: "$pg_data"
  port=$(free_port)
  say "PostgreSQL: nothing on ${pg_url#*@}, FULCRUM_TEST_PG_URL unset: starting a private one on 127.0.0.1:$port"
  as_pg "$pg_bin/initdb" -D "$pg_data" -U postgres --auth=trust --no-sync --encoding=UTF8 --locale=C > "$workdir/initdb.log" 2>&1 \
    || { cat "$workdir/initdb.log" >&2; exit 1; }
  # fsync off: a throwaway cluster has nothing to keep through a power cut (no test crashes the machine).
  as_pg "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $pg_data -c fsync=off -c full_page_writes=off -c max_connections=100" start > /dev/null \
    || { cat "$pg_data/server.log" >&2; exit 1; }
  as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres test
  pg_url="postgres://postgres@127.0.0.1:$port/test"
  say "PostgreSQL: $pg_url (pid $(head -n 1 "$pg_data/postmaster.pid"), data in $pg_data)"
fi

if [ "$redis_how" = absent ]; then
  port=$(free_port)
  say "Redis: nothing on ${redis_url#redis://}, FULCRUM_TEST_REDIS_URL unset: starting a private one on 127.0.0.1:$port"
  redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$workdir" \
    --daemonize yes --pidfile "$workdir/redis.pid" --logfile "$workdir/redis.log"
  for _ in $(seq 200); do
    redis-cli -h 127.0.0.1 -p "$port" ping 2> /dev/null | grep -q PONG && break
    sleep 0.05
  done
  redis_pid=$(cat "$workdir/redis.pid" 2> /dev/null || true)
  redis-cli -h 127.0.0.1 -p "$port" ping | grep -q PONG || { cat "$workdir/redis.log" >&2; exit 1; }
  redis_url="redis://127.0.0.1:$port"
  say "Redis: $redis_url (pid $redis_pid)"
fi

if [ -n "$workdir" ]; then say "private servers ready in $(( ($(date +%s%N) - started) / 1000000 )) ms"; fi

export FULCRUM_TEST_PG_URL="$pg_url" FULCRUM_TEST_REDIS_URL="$redis_url"
# In the background and waited for, so a signal to this script is handled at once (a foreground command would
# delay the trap until it ended); the trap then ends COMMAND before removing the servers.
"$@" &
child=$!
status=0
wait "$child" || status=$?
child=""
exit "$status"
