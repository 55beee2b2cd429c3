#!/usr/bin/env bash
# make bench: the benchmarks of issue 8, each beside a baseline measured in
# the same run. Like make test, it starts what it needs and always removes
# it: a throwaway Postgres cluster, a Temporal dev server (in memory), and
# the kudos binary as two processes (api, worker) in development mode, with
# the Stripe provider pointed at a fake Stripe API that the bench program
# serves. Then bench/cmd/bench runs, prints the table and writes
# bench/results/latest.json. Arguments go to bench/cmd/bench (-h lists
# them), e.g. `bench/run.sh -accounts 10000` or `make bench ARGS='-only ui'`.
# `make bench ARGS='-only lighthouse'` runs Lighthouse (mobile preset) on
# /signin, dashboard, billing and team, installed into the tools cache on
# first use (`-lighthouse-cpu calibrated`: see bench/ui/lighthouse-bench.mjs).
# It fails only when something is broken, never on a figure.
# KUDOS_BENCH_TEMPORAL=postgres runs them on a production-shaped Temporal
# (bin/temporal-sql: PostgreSQL persistence and visibility, its cluster on
# Postgres+1) instead of the dev server.
#
# Ports (each overridable): Postgres 54359, Temporal 7263, api 18280, fake
# Stripe 18284, SMTP 12535, OIDC 18292, local S3 api+1000; pprof off unless
# KUDOS_BENCH_PPROF_PORT is set (api on it, worker on the next).
set -uo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$KUDOS_ROOT"

for arg in "$@"; do
  case $arg in -h | -help | --help) exec go run ./bench/cmd/bench -h ;; esac
done

PG_PORT=${KUDOS_BENCH_PG_PORT:-54359}
TEMPORAL_PORT=${KUDOS_BENCH_TEMPORAL_PORT:-7263}
HTTP_PORT=${KUDOS_BENCH_HTTP_PORT:-18280}
STRIPE_PORT=${KUDOS_BENCH_STRIPE_PORT:-$((HTTP_PORT + 4))}
SMTP_PORT=${KUDOS_BENCH_SMTP_PORT:-12535}
OIDC_PORT=${KUDOS_BENCH_OIDC_PORT:-18292}
S3_PORT=${KUDOS_BENCH_S3_PORT:-$((HTTP_PORT + 1000))}
WORK=$(mktemp -d /tmp/kudos-bench.XXXXXX)
chmod 755 "$WORK"
# The dev server's SQLite in a file on tmpfs, as make test keeps it
# (scripts/test.sh says why: an in-memory database dies with its one
# connection, which the CLI's SQLite driver opens again after an
# interruption under load, and finds empty: "no such table").
TEMPORAL_DB_DIR=$(mktemp -d /dev/shm/kudos-bench.XXXXXX 2>/dev/null) || TEMPORAL_DB_DIR=$WORK
PIDS=()
FAILED=1

cleanup() {
  trap - EXIT INT TERM
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[$i]}" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  pg_stop "$WORK/pg"
  [ -d "$WORK/temporal-pg" ] && pg_stop "$WORK/temporal-pg"
  [ "$TEMPORAL_DB_DIR" != "$WORK" ] && rm -rf "$TEMPORAL_DB_DIR"
  if [ "$FAILED" = 0 ]; then rm -rf "$WORK"; else say "logs kept in $WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The UI build and the browser's packages only when the ui benchmark runs
# (every benchmark runs without -only; `-only scale` needs neither).
ONLY=""
prev=""
for arg in "$@"; do
  case $arg in -only=* | --only=*) ONLY=${arg#*=} ;; esac
  case $prev in -only | --only) ONLY=$arg ;; esac
  prev=$arg
done
NEED_UI=1
[ -n "$ONLY" ] && [[ ",$ONLY," != *,ui,* ]] && [[ ",$ONLY," != *,lighthouse,* ]] && NEED_UI=0
# KUDOS_BENCH_TRACING=1: the cost of tracing (issue 40) instead: the read
# path and the intake with tracing off, then sampling 10 % and 100 % of the
# traces exported over OTLP to a sink that discards them, each on a fresh
# database with a fresh api and worker, in one run (see the end).
TRACING=${KUDOS_BENCH_TRACING:-}
[ -n "$TRACING" ] && NEED_UI=0

say "preparing: binaries, services$([ "$NEED_UI" = 1 ] && echo ", UI build")"
if [ "$NEED_UI" = 1 ]; then
  ui_ready
  if [ ! -d e2e/node_modules/playwright-core ]; then
    npm --prefix e2e ci --no-audit --no-fund --loglevel=error || die "npm ci in e2e failed"
  fi
fi
# Lighthouse (-only lighthouse: it never runs otherwise) from the tools cache.
if [[ ",$ONLY," == *,lighthouse,* ]]; then
  LIGHTHOUSE_DIR=$(ensure_lighthouse) || exit 1
  export LIGHTHOUSE_DIR
fi
ensure_temporal
# Built into the work folder, not bin/: a make test running beside us keeps
# its own binary, and we measure exactly the sources we were started on.
go build -o "$WORK/kudos" ./cmd/kudos || die "go build ./cmd/kudos failed"
go build -o "$WORK/bench" ./bench/cmd/bench || die "go build ./bench/cmd/bench failed"
# pg_stat_statements: the scale benchmark explains the slowest statements.
KUDOS_PG_OPTS="-c shared_preload_libraries=pg_stat_statements" pg_start "$WORK/pg" "$PG_PORT" fast
# KUDOS_BENCH_TEMPORAL=postgres: a production-shaped Temporal instead of
# the dev server: bin/temporal-sql (tools/temporal-sql, docs/scaling.md)
# with its persistence and visibility in a Postgres cluster of its own on
# PG+1, set up as an operator sets up a self-hosted cluster (`kudos
# temporal setup`, below). The dev server keeps visibility in the same
# SQLite as everything else, where every search-attribute upsert is a
# synchronous write on the history's path.
TEMPORAL_KIND=${KUDOS_BENCH_TEMPORAL:-dev}
case $TEMPORAL_KIND in
  dev)
    temporal_start "$TEMPORAL_PORT" 0 "$TEMPORAL_DB_DIR/temporal.db" "$WORK/temporal.log"
    ;;
  postgres)
    temporal_sql_setup "$WORK/temporal-pg" "$((PG_PORT + 1))" >"$WORK/temporal-setup.log" 2>&1 ||
      { tail -n 20 "$WORK/temporal-setup.log" >&2; die "temporal-sql setup failed"; }
    TEMPORAL_SQL_LOG_LEVEL=error temporal_sql_start "$TEMPORAL_PORT" "$((PG_PORT + 1))" "$WORK/temporal.log"
    ;;
  *) die "KUDOS_BENCH_TEMPORAL=$TEMPORAL_KIND: dev (the default) or postgres" ;;
esac
PIDS+=("$TEMPORAL_PID")

export KUDOS_ENV=development
export KUDOS_METRICS_ADDR=127.0.0.1:0 KUDOS_HTTP_ADDR="127.0.0.1:$HTTP_PORT" KUDOS_PUBLIC_URL="http://127.0.0.1:$HTTP_PORT"
export DATABASE_URL="postgres://kudos@127.0.0.1:$PG_PORT/kudos?sslmode=disable"
export TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT" TEMPORAL_NAMESPACE=default KUDOS_TASK_QUEUE=kudos-bench
export KUDOS_DEV_SMTP_ADDR="127.0.0.1:$SMTP_PORT" KUDOS_DEV_OIDC_ADDR="127.0.0.1:$OIDC_PORT" KUDOS_DEV_S3_ADDR="127.0.0.1:$S3_PORT"
export KUDOS_JWT_SECRET="kudos-bench-jwt-secret-0123456789abcdef"
export KUDOS_PAYMENT_PROVIDER=stripe STRIPE_SECRET_KEY=sk_test_kudos_bench STRIPE_WEBHOOK_SECRET=whsec_kudos_bench
export KUDOS_STRIPE_API_BASE="http://127.0.0.1:$STRIPE_PORT"
export KUDOS_LOG_LEVEL=${KUDOS_BENCH_LOG_LEVEL:-info}
unset KUDOS_TRIAL_DURATION KUDOS_BILLING_PERIOD KUDOS_CHECKOUT_TTL SMTP_URL KUDOS_S3_ENDPOINT KUDOS_OIDC_ISSUER KUDOS_UI_ORIGINS

# KUDOS_BENCH_PPROF_PORT: profiles of the api on that loopback port and of
# the worker on the next (KUDOS_PPROF_ADDR), e.g. for
#   go tool pprof http://127.0.0.1:PORT/debug/pprof/profile?seconds=10
PPROF_PORT=${KUDOS_BENCH_PPROF_PORT:-}
unset KUDOS_PPROF_ADDR
# start_kudos LOGSUFFIX: the api and the worker on the environment
# (API_PID, WORKER_PID).
start_kudos() {
  KUDOS_PPROF_ADDR=${PPROF_PORT:+127.0.0.1:$PPROF_PORT} "$WORK/kudos" api >"$WORK/api$1.log" 2>&1 &
  API_PID=$!
  PIDS+=("$API_PID")
  wait_http "$KUDOS_PUBLIC_URL/readyz" 60 || { tail -n 30 "$WORK/api$1.log" >&2; die "the api did not become ready"; }
  KUDOS_PPROF_ADDR=${PPROF_PORT:+127.0.0.1:$((PPROF_PORT + 1))} "$WORK/kudos" worker >"$WORK/worker$1.log" 2>&1 &
  WORKER_PID=$!
  PIDS+=("$WORKER_PID")
  wait_log "$WORK/worker$1.log" "worker polling" 60 || { tail -n 30 "$WORK/worker$1.log" >&2; die "the worker did not start"; }
}

if [ -n "$TRACING" ]; then
  SINK="127.0.0.1:$((HTTP_PORT + 5))"
  "$WORK/bench" -otlp-sink "$SINK" 2>"$WORK/sink.log" &
  PIDS+=("$!")
  wait_port 127.0.0.1 "$((HTTP_PORT + 5))" 30 || die "the OTLP sink did not start"
  mkdir -p bench/results
  BROKEN=0
  for variant in off 10 100; do
    as_pg "$(pg_bindir)/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres -O kudos "kudos_tracing_$variant" || die "createdb failed"
    export DATABASE_URL="postgres://kudos@127.0.0.1:$PG_PORT/kudos_tracing_$variant?sslmode=disable"
    if [ "$variant" = off ]; then
      unset OTEL_EXPORTER_OTLP_ENDPOINT OTEL_TRACES_SAMPLER OTEL_TRACES_SAMPLER_ARG
    else
      export OTEL_EXPORTER_OTLP_ENDPOINT="http://$SINK" OTEL_TRACES_SAMPLER=parentbased_traceidratio
      OTEL_TRACES_SAMPLER_ARG=$(awk "BEGIN { print $variant / 100 }")
      export OTEL_TRACES_SAMPLER_ARG
    fi
    start_kudos "-$variant"
    say "tracing $variant: read path and intake (api pid $API_PID, worker pid $WORKER_PID)"
    "$WORK/bench" -only read,intake -out "bench/results/tracing-$variant.json" -base "$KUDOS_PUBLIC_URL" -db "$DATABASE_URL" \
      -temporal "$TEMPORAL_ADDRESS" -task-queue "$KUDOS_TASK_QUEUE" -stripe-addr "127.0.0.1:$STRIPE_PORT" -api-pid "$API_PID" \
      -worker-pid "$WORKER_PID" -pg-pid "$(head -n 1 "$WORK/pg/postmaster.pid")" -temporal-pid "$TEMPORAL_PID" "$@" ||
      { say "tracing $variant: a benchmark failed (above); the other variants still run"; BROKEN=1; }
    kill -TERM "$API_PID" "$WORKER_PID" 2>/dev/null
    wait "$API_PID" "$WORKER_PID" 2>/dev/null
  done
  for variant in off 10 100; do
    say "tracing $variant (bench/results/tracing-$variant.md)"
    cat "bench/results/tracing-$variant.md" 2>/dev/null
  done
  FAILED=$BROKEN
  exit "$BROKEN"
fi

if [ "$TEMPORAL_KIND" = postgres ]; then
  # The namespace and Kudos's search attributes; the frontend answers
  # "not healthy yet" until its membership ring forms, so it is retried.
  for i in $(seq 60); do
    "$WORK/kudos" temporal setup >"$WORK/temporal-kudos-setup.log" 2>&1 && break
    [ "$i" = 60 ] && { tail -n 20 "$WORK/temporal-kudos-setup.log" >&2; die "kudos temporal setup failed"; }
    sleep 2
  done
fi
start_kudos ""
say "running the benchmarks on Temporal ($TEMPORAL_KIND) (api pid $API_PID, worker pid $WORKER_PID)"
"$WORK/bench" -base "$KUDOS_PUBLIC_URL" -db "$DATABASE_URL" -temporal "$TEMPORAL_ADDRESS" -task-queue "$KUDOS_TASK_QUEUE" \
  -stripe-addr "127.0.0.1:$STRIPE_PORT" -api-pid "$API_PID" -worker-pid "$WORKER_PID" \
  -pg-pid "$(head -n 1 "$WORK/pg/postmaster.pid")" -temporal-pid "$TEMPORAL_PID" \
  -temporal-cli-version "$(if [ "$TEMPORAL_KIND" = postgres ]; then echo "bin/temporal-sql, PostgreSQL persistence and visibility"; else "$KUDOS_ROOT/bin/temporal" --version 2>/dev/null | head -n 1; fi)" \
  -chromium "${CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}" "$@"
FAILED=$?
exit "$FAILED"
