#!/usr/bin/env bash
# Chromium for make test's browsers, kept at the niceness it was started
# with (KUDOS_TEST_NICE, scripts/test.sh): Chromium sets its processes'
# priorities itself, and run as root it raises its browser and GPU
# processes to -8 and its renderers to 0, ahead of go test's lane. Without
# CAP_SYS_NICE it cannot lower a niceness; other users never have it.
# Runs KUDOS_CHROMIUM_BIN with the arguments given.
set -euo pipefail
if [ "$(id -u)" = 0 ]; then
  exec setpriv --bounding-set -sys_nice "$KUDOS_CHROMIUM_BIN" "$@"
fi
exec "$KUDOS_CHROMIUM_BIN" "$@"
