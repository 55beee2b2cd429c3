#!/usr/bin/env bash
# The worker of the fast end-to-end instance, which fault tests kill and
# start again: e2e-worker.sh kill | start. Needs KUDOS_E2E_FAST_ENV,
# KUDOS_E2E_WORKER_LOG and KUDOS_E2E_WORKER_PIDFILE (set by scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  kill)
    if [ -f "$KUDOS_E2E_WORKER_PIDFILE" ]; then
      kill -KILL "$(cat "$KUDOS_E2E_WORKER_PIDFILE")" 2>/dev/null || true
      rm -f "$KUDOS_E2E_WORKER_PIDFILE"
    fi ;;
  start)
    # shellcheck disable=SC2086 # the variable is a list of NAME=value words
    # (at level info, so that its log says when it polls)
    nohup env $KUDOS_E2E_FAST_ENV KUDOS_LOG_LEVEL=info ./bin/kudos worker >>"$KUDOS_E2E_WORKER_LOG" 2>&1 &
    echo $! >"$KUDOS_E2E_WORKER_PIDFILE" ;;
  *) echo "usage: $0 kill|start" >&2; exit 2 ;;
esac
