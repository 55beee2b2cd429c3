#!/usr/bin/env bash
# Fault tests (issue 8): real api and worker processes on a private Postgres
# and Temporal, killed, stopped and restarted under work; see faults/.
#   scripts/faults.sh         short outages (a step of make test)
#   scripts/faults.sh long    the outages of issue 8: Temporal down 30 s,
#                             SMTP refusing 2 min (make chaos)
#   KUDOS_TEMPORAL_PERSISTENCE=postgres scripts/faults.sh [long]
#                             the same against a Temporal server persisting
#                             to its own Postgres (bin/temporal-sql, built
#                             from tools/temporal-sql) instead of the dev
#                             server: opt-in, never part of make test
#                             (docs/scaling.md, "Temporal on PostgreSQL")
# Ports: KUDOS_FAULTS_PG_PORT (54379), KUDOS_FAULTS_TEMPORAL_PORT (7283; 7933
# and the next 13 with Postgres persistence), KUDOS_FAULTS_TEMPORAL_PG_PORT
# (56450), KUDOS_FAULTS_HTTP_PORT (18480; S3 on +1000, OIDC on +2, SMTP on
# -5900).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$KUDOS_ROOT"
ensure_temporal
on_postgres=false
[ "${KUDOS_TEMPORAL_PERSISTENCE:-}" = postgres ] && on_postgres=true
$on_postgres && ensure_temporal_sql
go build -o bin/kudos ./cmd/kudos
if [ "${1:-}" = long ]; then export KUDOS_FAULTS_LONG=1; minutes=30; else minutes=10; fi
# Postgres persistence adds a cluster, its schema and the namespace's setup
# to the start (about 40 s here), and a margin for a loaded machine.
$on_postgres && minutes=$((minutes + 10))
exec go test -tags faults -count=1 -timeout "${minutes}m" -v ./faults/
