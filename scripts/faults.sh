#!/usr/bin/env bash
# Fault tests (issue 8): real api and worker processes on a private Postgres
# and Temporal, killed, stopped and restarted under work; see faults/.
#   scripts/faults.sh         short outages (a step of make test)
#   scripts/faults.sh long    the outages of issue 8: Temporal down 30 s,
#                             SMTP refusing 2 min (make chaos)
# Ports: KUDOS_FAULTS_PG_PORT (54379), KUDOS_FAULTS_TEMPORAL_PORT (7283),
# KUDOS_FAULTS_HTTP_PORT (18480; S3 on +1000, OIDC on +2, SMTP on -5900).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$KUDOS_ROOT"
ensure_temporal
go build -o bin/kudos ./cmd/kudos
if [ "${1:-}" = long ]; then export KUDOS_FAULTS_LONG=1; timeout=30m; else timeout=10m; fi
exec go test -tags faults -count=1 -timeout "$timeout" -v ./faults/
