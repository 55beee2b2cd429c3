#!/usr/bin/env bash
# make test: every test of Kudos, against real services that this script
# starts and always removes: a throwaway Postgres cluster, a Temporal dev
# server (in memory), and the kudos binary for the end-to-end tests.
# Steps: go vet, go test -race (unit + integration), short fuzzing, fault
# tests, UI typecheck, lint and unit tests, end-to-end tests in headless
# Chromium. Exits non-zero on any failure and prints a summary.
#
# KUDOS_TEST_STEPS picks steps (comma-separated: vet, go, fuzz, faults, ui,
# e2e; default all), e.g. KUDOS_TEST_STEPS=e2e scripts/test.sh, and
# KUDOS_E2E_FILES the end-to-end test files (default: all of e2e/), e.g.
# KUDOS_TEST_STEPS=e2e KUDOS_E2E_FILES=e2e/shell.test.mjs scripts/test.sh.
# Ports: KUDOS_TEST_PG_PORT (54339), KUDOS_TEST_TEMPORAL_PORT (7243) and
# KUDOS_TEST_HTTP_PORT (18080) are the bases; everything else derives from
# them, so two runs with different bases never collide: the fast e2e
# instance on HTTP+1, local S3 on +1000 (each instance), OIDC on HTTP+2/+3,
# SMTP capture on HTTP-5555/-5554, and the fault tests on PG+40,
# TEMPORAL+40 and HTTP+400 (unless KUDOS_FAULTS_* are set).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$KUDOS_ROOT"

PG_PORT=${KUDOS_TEST_PG_PORT:-54339}
TEMPORAL_PORT=${KUDOS_TEST_TEMPORAL_PORT:-7243}
E2E_PORT=${KUDOS_TEST_HTTP_PORT:-18080}
STEPS=${KUDOS_TEST_STEPS:-vet,go,fuzz,faults,ui,e2e}
export KUDOS_FAULTS_PG_PORT=${KUDOS_FAULTS_PG_PORT:-$((PG_PORT + 40))}
export KUDOS_FAULTS_TEMPORAL_PORT=${KUDOS_FAULTS_TEMPORAL_PORT:-$((TEMPORAL_PORT + 40))}
export KUDOS_FAULTS_HTTP_PORT=${KUDOS_FAULTS_HTTP_PORT:-$((E2E_PORT + 400))}
WORK=$(mktemp -d /tmp/kudos-test.XXXXXX)
chmod 755 "$WORK"
PIDS=()
RESULTS=()
FAILED=0

cleanup() {
  trap - EXIT INT TERM
  [ -f "$WORK/worker.pid" ] && kill -KILL "$(cat "$WORK/worker.pid")" 2>/dev/null
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  pg_stop "$WORK/pg"
  if [ "$FAILED" = 0 ]; then rm -rf "$WORK"; else say "logs kept in $WORK"; fi
}
trap cleanup EXIT
trap 'FAILED=1; exit 130' INT TERM

# wanted KEY: whether KUDOS_TEST_STEPS selects the step KEY.
wanted() { case ",$STEPS," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# step KEY NAME CMD...: run a selected step, record its outcome, keep going.
step() {
  local key=$1 name=$2; shift 2
  wanted "$key" || return 0
  say "── $name"
  local start=$SECONDS
  if "$@"; then RESULTS+=("ok    $name ($((SECONDS - start)) s)")
  else RESULTS+=("FAIL  $name ($((SECONDS - start)) s)"); FAILED=1; fi
}

say "preparing: UI build, binaries, services"
ui_ready
ensure_temporal
ensure_stripe_mock
go build -o bin/kudos ./cmd/kudos || die "go build failed"
pg_start "$WORK/pg" "$PG_PORT" fast
temporal_start "$TEMPORAL_PORT" 0 "" "$WORK/temporal.log"
PIDS+=("$TEMPORAL_PID")
export KUDOS_TEST_DATABASE_URL="postgres://kudos@127.0.0.1:$PG_PORT/kudos?sslmode=disable"
export KUDOS_TEST_TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT"
export KUDOS_TEST_STRIPE_MOCK="$KUDOS_ROOT/bin/stripe-mock"

step vet "go vet (with the faults build tag)" go vet -tags faults ./...
step go "go test -race (unit and integration)" go test -race -count=1 -timeout 15m ./...
step fuzz "fuzz (short)" scripts/fuzz.sh 5
step faults "faults (worker killed, Temporal/Postgres/SMTP down, duplicate events)" scripts/faults.sh
step ui "ui typecheck" npm --prefix ui run --silent typecheck
step ui "ui lint" npm --prefix ui run --silent lint
step ui "ui unit tests" npm --prefix ui test --silent
step ui "ui bundle budget (/signin JS ≤ 150 KB gzip)" node ui/scripts/bundle-size.mjs signin

# e2e_env NAME PORT SMTP OIDC: the environment of one end-to-end instance,
# on its own database, task queue and local S3 (port PORT+1000).
e2e_env() {
  echo KUDOS_DEV_S3_ADDR="127.0.0.1:$(($2 + 1000))" KUDOS_ENV=development KUDOS_HTTP_ADDR="127.0.0.1:$2" KUDOS_METRICS_ADDR=127.0.0.1:0 KUDOS_PUBLIC_URL="http://127.0.0.1:$2" \
    DATABASE_URL="postgres://kudos@127.0.0.1:$PG_PORT/$1?sslmode=disable" TEMPORAL_ADDRESS="$KUDOS_TEST_TEMPORAL_ADDRESS" \
    KUDOS_TASK_QUEUE="kudos-$1" KUDOS_DEV_SMTP_ADDR="127.0.0.1:$3" KUDOS_DEV_OIDC_ADDR="127.0.0.1:$4" KUDOS_LOG_LEVEL=warn
}

e2e() {
  [ -d e2e/node_modules ] && [ ! e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ] \
    || (cd e2e && npm ci --no-audit --no-fund --loglevel=error) || return 1
  local chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
  [ -n "$chromium" ] || { say "chromium not found: apt-get install -y chromium"; return 1; }
  for db in e2e e2e_fast; do
    as_pg "$(pg_bindir)/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE $db OWNER kudos" >/dev/null || return 1
  done
  # The main instance: api and worker in one process, as make dev runs them.
  env $(e2e_env e2e "$E2E_PORT" $((E2E_PORT - 5555)) $((E2E_PORT + 2))) ./bin/kudos dev >"$WORK/kudos-e2e.log" 2>&1 &
  PIDS+=("$!")
  # The fast instance: a 20 s trial and a 45 s year, so trials expire and
  # plans renew while the tests watch; api and worker apart, so that a test
  # can kill the worker (scripts/e2e-worker.sh kill|start).
  local fast=$((E2E_PORT + 1))
  export KUDOS_E2E_FAST_ENV="$(e2e_env e2e_fast "$fast" $((E2E_PORT - 5554)) $((E2E_PORT + 3))) KUDOS_TRIAL_DURATION=20s KUDOS_BILLING_PERIOD=45s"
  export KUDOS_E2E_WORKER_LOG="$WORK/kudos-e2e-fast-worker.log" KUDOS_E2E_WORKER_PIDFILE="$WORK/worker.pid"
  env $KUDOS_E2E_FAST_ENV ./bin/kudos api >"$WORK/kudos-e2e-fast-api.log" 2>&1 &
  PIDS+=("$!")
  wait_http "http://127.0.0.1:$E2E_PORT/readyz" 60 || { tail -n 30 "$WORK/kudos-e2e.log" >&2; return 1; }
  wait_http "http://127.0.0.1:$fast/readyz" 60 || { tail -n 30 "$WORK/kudos-e2e-fast-api.log" >&2; return 1; }
  # The worker waits for the api's local S3 if it comes first; starting it
  # second spares that wait. Its log must say it polls before tests begin.
  scripts/e2e-worker.sh start || return 1
  wait_log "$KUDOS_E2E_WORKER_LOG" "worker polling" 60 || { tail -n 30 "$KUDOS_E2E_WORKER_LOG" >&2; return 1; }
  local rc=0
  KUDOS_E2E_URL="http://127.0.0.1:$E2E_PORT" KUDOS_E2E_FAST_URL="http://127.0.0.1:$fast" CHROMIUM="$chromium" \
    node --test --test-concurrency=1 ${KUDOS_E2E_FILES:-e2e/} || rc=1
  scripts/e2e-worker.sh kill
  return $rc
}
step e2e "end-to-end (headless Chromium)" e2e

printf '\n%s\n' "──────── summary ────────" >&2
printf '  %s\n' "${RESULTS[@]}" >&2
passed=0; failed=0
for r in "${RESULTS[@]}"; do case $r in ok*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac; done
echo "steps: $passed passed, $failed failed"
exit "$FAILED"
