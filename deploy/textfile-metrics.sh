#!/bin/sh
# PgBouncer's pools and pgBackRest's backups as Prometheus text files, for node_exporter's textfile collector
# (prometheus-node-exporter --collector.textfile.directory=DIR). Debian packages no exporter for either that works
# here: its prometheus-pgbouncer-exporter 1.7 fails at start against PgBouncer 1.18 (it asks SHOW STATS for
# total_requests, a column PgBouncer 1.8 removed), and there is none for pgBackRest.
#
#   textfile-metrics.sh --dir DIR [--every SECONDS]
#
# Writes DIR/pgbouncer.prom and DIR/pgbackrest.prom, each replaced whole (written beside, then renamed) and only when
# its source answered: a source that stops answering leaves its file as it was, and node_textfile_mtime_seconds, which
# node_exporter reports for each file, grows old (the alert TextfileMetricsStale). With --every it runs until stopped.
# Run it as a user that may run `pgbackrest info` (postgres), from a systemd timer or with --every.
#
#   PGBOUNCER_URL      PgBouncer's admin console as one of its stats_users, e.g.
#                      postgresql://stats:secret@127.0.0.1:6432/pgbouncer (unset: no pgbouncer.prom)
#   PGBACKREST_CONFIG  pgbackrest's --config (unset: its default; set to "none": no pgbackrest.prom)
#
# Needs psql, jq and pgbackrest (Debian: postgresql-client, jq, pgbackrest).
set -eu

dir=''
every=''
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --every) every="$2"; shift 2 ;;
    *) echo "textfile-metrics.sh: unknown argument $1 (--dir DIR [--every SECONDS])" >&2; exit 64 ;;
  esac
done
[ -n "$dir" ] || { echo 'textfile-metrics.sh: --dir DIR is required' >&2; exit 64; }

# SHOW POOLS as CSV, each column found by its name in the header (their order changes between PgBouncer versions).
# Each source is read whole before it is turned into metrics: in a pipe, its failure would be lost to the next program's
# success.
pgbouncer_pools() {
  pools=$(psql "$PGBOUNCER_URL" -X -q --csv -c 'SHOW POOLS') || return 1
  printf '%s\n' "$pools" | awk -F, '
    function gauge(name, help, values,   l) {
      print "# HELP " name " " help
      print "# TYPE " name " gauge"
      for (l in values) print name l, values[l]
    }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      l = sprintf("{database=\"%s\",user=\"%s\"}", $col["database"], $col["user"])
      waiting[l] = $col["cl_waiting"]; active[l] = $col["cl_active"]
      sv_active[l] = $col["sv_active"]; sv_idle[l] = $col["sv_idle"]
      maxwait[l] = sprintf("%.6f", $col["maxwait"] + $col["maxwait_us"] / 1000000)
    }
    END {
      gauge("pgbouncer_waiting_clients", "Client connections waiting for a server connection (SHOW POOLS cl_waiting).", waiting)
      gauge("pgbouncer_active_clients", "Client connections linked to a server connection (SHOW POOLS cl_active).", active)
      gauge("pgbouncer_active_servers", "Server connections linked to a client (SHOW POOLS sv_active).", sv_active)
      gauge("pgbouncer_idle_servers", "Server connections unused and ready (SHOW POOLS sv_idle).", sv_idle)
      gauge("pgbouncer_max_wait_seconds", "How long the oldest waiting client has waited (SHOW POOLS maxwait, maxwait_us).", maxwait)
    }'
}

# pgbackrest info: per stanza, its status code (0 is ok) and, per backup type, the newest backup's completion time
pgbackrest_info() {
  if [ -n "${PGBACKREST_CONFIG:-}" ]; then set -- "--config=$PGBACKREST_CONFIG"; else set --; fi
  info=$(pgbackrest "$@" --output=json info) || return 1
  printf '%s\n' "$info" | jq -r '
    "# HELP pgbackrest_stanza_status The stanza'"'"'s status code in pgbackrest info (0: ok).",
    "# TYPE pgbackrest_stanza_status gauge",
    (.[] | "pgbackrest_stanza_status{stanza=\"\(.name)\"} \(.status.code)"),
    "# HELP pgbackrest_last_backup_completion_timestamp_seconds When the newest backup of each type completed (Unix time).",
    "# TYPE pgbackrest_last_backup_completion_timestamp_seconds gauge",
    (.[] | .name as $s | (.backup // []) | group_by(.type)[] | max_by(.timestamp.stop)
      | "pgbackrest_last_backup_completion_timestamp_seconds{stanza=\"\($s)\",type=\"\(.type)\"} \(.timestamp.stop)"),
    "# HELP pgbackrest_backups Backups held in the repository, by type.",
    "# TYPE pgbackrest_backups gauge",
    (.[] | .name as $s | (.backup // []) | group_by(.type)[] | "pgbackrest_backups{stanza=\"\($s)\",type=\"\(.[0].type)\"} \(length)")'
}

# runs `$2` and puts what it printed in DIR/$1 (whole, or not at all)
write() {
  tmp="$dir/.$1.$$"
  if "$2" > "$tmp" 2> "$tmp.err"; then
    mv -f "$tmp" "$dir/$1"
    rm -f "$tmp.err"
  else
    echo "$(date -u +%FT%TZ) $1 not written: $(tr '\n' ' ' < "$tmp.err")" >&2
    rm -f "$tmp" "$tmp.err"
  fi
}

once() {
  [ -z "${PGBOUNCER_URL:-}" ] || write pgbouncer.prom pgbouncer_pools
  [ "${PGBACKREST_CONFIG:-}" = none ] || write pgbackrest.prom pgbackrest_info
}

mkdir -p "$dir"
if [ -z "$every" ]; then
  once
else
  trap 'exit 0' TERM INT
  while :; do
    once
    sleep "$every" &
    wait $!
  done
fi
