#!/usr/bin/env bash
# make dev: run the whole product locally with no cloud account.
# Starts (or reuses) a private Postgres cluster and the Temporal dev server
# under .data/, builds what is missing, runs api + worker, prints the URLs.
# Ctrl-C stops everything it started. DATABASE_URL / TEMPORAL_ADDRESS, when
# set, are used instead of the local services.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$KUDOS_ROOT"

DATA="$KUDOS_ROOT/.data"
PG_PORT=${KUDOS_DEV_PG_PORT:-54329}
mkdir -p "$DATA" && chmod 755 "$DATA"

PIDS=()
STARTED_PG=
cleanup() {
  trap - EXIT INT TERM
  say "stopping"
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[$i]}" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "$STARTED_PG" ] && pg_stop "$DATA/postgres"
  say "stopped"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ui_ready
say "building bin/kudos"
go build -o bin/kudos ./cmd/kudos

if [ -z "${DATABASE_URL:-}" ]; then
  say "starting Postgres on 127.0.0.1:$PG_PORT (.data/postgres)"
  pg_start "$DATA/postgres" "$PG_PORT"
  # One left running by a make dev killed hard is this one's now: stopped too.
  [ -z "$PG_REUSED" ] || say "(reusing the Postgres left running from .data/postgres)"
  STARTED_PG=1
  export DATABASE_URL="postgres://kudos@127.0.0.1:$PG_PORT/kudos?sslmode=disable"
fi
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  ensure_temporal
  say "starting the Temporal dev server on 127.0.0.1:7233 (Web UI :8233, state in .data/temporal.db)"
  temporal_start 7233 8233 "$DATA/temporal.db" "$DATA/temporal.log"
  PIDS+=("$TEMPORAL_PID")
  export TEMPORAL_ADDRESS=127.0.0.1:7233
fi

# Traces (issue 40) go to a local Jaeger, unless OTEL_EXPORTER_OTLP_ENDPOINT
# names another backend, or KUDOS_DEV_JAEGER=0 turns them off. Jaeger's
# first build takes up to an hour: make dev does not wait for it. It starts
# the build in the background and runs without traces this once; the next
# make dev after the build starts Jaeger. KUDOS_DEV_JAEGER=wait waits.
JAEGER_UI=
JAEGER_STATE=off
if [ -z "${OTEL_EXPORTER_OTLP_ENDPOINT:-}" ] && [ "${KUDOS_DEV_JAEGER:-1}" != 0 ]; then
  [ "${KUDOS_DEV_JAEGER:-1}" = wait ] && ensure_jaeger
  if have_jaeger; then
    JAEGER_STATE=run
  else
    build_jaeger_in_background "$DATA/jaeger-build.log"
    JAEGER_STATE="off this run: Jaeger is being built in the background (first run on this machine; log .data/jaeger-build.log); the next make dev starts it"
    say "Jaeger is not built yet: building it in the background; traces are off until the next make dev"
  fi
fi
if [ "$JAEGER_STATE" = run ]; then
  ensure_jaeger_ui || say "Jaeger's UI is not at hand (GitHub out of reach; KUDOS_JAEGER_UI_SRC can name a jaeger-ui checkout to build it): its page is a placeholder, its API works"
  say "starting Jaeger (UI :16686, OTLP :4318, traces in memory; scripts/jaeger-dev.yaml)"
  KUDOS_JAEGER_UI_DIR=$JAEGER_UI_DIR ./bin/jaeger --config="file:$KUDOS_ROOT/scripts/jaeger-dev.yaml" >"$DATA/jaeger.log" 2>&1 &
  PIDS+=("$!")
  wait_port 127.0.0.1 4318 60 || { tail -n 20 "$DATA/jaeger.log" >&2; die "Jaeger did not start (port 4318 busy?)"; }
  export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318
  JAEGER_UI=http://127.0.0.1:16686
fi

export KUDOS_ENV=${KUDOS_ENV:-development}
export KUDOS_DEV_S3_DIR=${KUDOS_DEV_S3_DIR:-$DATA/s3}
./bin/kudos dev &
PIDS+=("$!")
KUDOS_URL=${KUDOS_PUBLIC_URL:-http://127.0.0.1:8080}
if wait_http "$KUDOS_URL/readyz" 60; then
  cat >&2 <<MSG

  Kudos is running:
    app              $KUDOS_URL
    readiness        $KUDOS_URL/readyz
    metrics          http://${KUDOS_METRICS_ADDR:-127.0.0.1:9091}/metrics
    dev mailbox      $KUDOS_URL/dev/mailbox
    passkeys         ${KUDOS_URL/\/\/127.0.0.1:/\/\/localhost:} (WebAuthn refuses an IP address: open the app there to use them)
    local S3         http://${KUDOS_DEV_S3_ADDR:-127.0.0.1:9000} (objects in .data/s3)
    Temporal Web UI  http://127.0.0.1:8233
    Jaeger (traces)  ${JAEGER_UI:-${OTEL_EXPORTER_OTLP_ENDPOINT:-$JAEGER_STATE}}
    Postgres         ${DATABASE_URL}

  Ctrl-C stops everything.

MSG
else
  say "kudos did not become ready in 60 s; see the log above"
fi
wait -n "${PIDS[@]}"
