#!/usr/bin/env bash
# A throwaway PostgreSQL server for the PostgreSQL adapter's tests, benchmarks and README example:
# a cluster in a folder of its own, on a port of its own on 127.0.0.1, run as the `postgres` user
# when started by root (PostgreSQL refuses root), with a role and database `mvclayers` whose
# password is `mvclayers` (over TCP, scram-sha-256: a wrong password is refused).
#
# USAGE: Scripts/postgres-server.sh start|stop|restart|remove|url
#   start    make the cluster (first time) and start it      stop     stop it (fast)
#   restart  stop and start it again                         remove   stop it and delete its folder
#   url      print the URL the tests read from MVCLAYERS_POSTGRES
# Settings: MVCLAYERS_POSTGRES_FOLDER (default /tmp/mvclayers-postgres), MVCLAYERS_POSTGRES_PORT
# (default 55432). Needs Debian's postgresql package (apt-get install postgresql libpq-dev).
set -euo pipefail

# Every descriptor but the standard three is closed first: a server started from here would keep
# whatever the caller had open (a pipe another program waits to see closed, a file's lock) for the
# whole of its life. Bash's own, 255, is closed on exec anyway.
for descriptor in /proc/$$/fd/*; do
    number=${descriptor##*/}
    if [ "$number" -gt 2 ] && [ "$number" -ne 255 ]; then eval "exec $number>&-" 2>/dev/null || true; fi
done

folder=${MVCLAYERS_POSTGRES_FOLDER:-/tmp/mvclayers-postgres}
port=${MVCLAYERS_POSTGRES_PORT:-55432}
url="postgres://mvclayers:mvclayers@127.0.0.1:$port/mvclayers"

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ]; then
    echo "error: no PostgreSQL server here; install Debian's postgresql package" >&2
    exit 1
fi
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
psql_admin() {
    as_owner psql -X -q -h "$folder" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"
}

case ${1:-} in
start)
    if [ ! -f "$folder/data/PG_VERSION" ]; then
        mkdir -p "$folder"
        if [ "$(id -u)" -eq 0 ]; then chown postgres "$folder"; fi
        as_owner "$bin/initdb" -D "$folder/data" -U postgres --auth-local=trust \
            --auth-host=scram-sha-256 >"$folder/initdb.log"
        {
            echo "listen_addresses = '127.0.0.1'"
            echo "port = $port"
            echo "unix_socket_directories = '$folder'"
        } | as_owner tee -a "$folder/data/postgresql.conf" >/dev/null
    fi
    as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 start >/dev/null
    if [ -z "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'mvclayers'")" ]; then
        psql_admin -c "CREATE ROLE mvclayers LOGIN PASSWORD 'mvclayers'"
        psql_admin -c "CREATE DATABASE mvclayers OWNER mvclayers"
    fi
    echo "PostgreSQL is running: $url"
    ;;
stop) as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null ;;
restart) as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -m fast -w restart >/dev/null ;;
remove)
    as_owner "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    ;;
url) echo "$url" ;;
*)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
