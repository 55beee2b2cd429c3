#!/usr/bin/env bash
# make audit: known vulnerabilities in what Kudos ships, and its software
# bill of materials (issue 35 item 10).
#   1. govulncheck ./... (the Go module, reachable code only) against the
#      Go vulnerability database (GOVULNDB, default vuln.go.dev);
#   2. npm audit for the UI and the e2e tests against the npm registry's
#      advisories;
#   3. CycloneDX SBOMs of the Go module (cyclonedx-gomod) and of the UI
#      (npm sbom), written to audit/ whatever 1 and 2 said, so that a machine
#      that reaches the databases can audit this release later.
# A database that cannot be reached is no pass: the run says "vulnerability
# database unreachable" and exits 2 (a vulnerability found exits 1).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$KUDOS_ROOT"

GOVULNCHECK_VERSION=v1.9.0
CYCLONEDX_GOMOD_VERSION=v1.10.0
ensure_tool govulncheck "$GOVULNCHECK_VERSION" golang.org/x/vuln/cmd/govulncheck
ensure_tool cyclonedx-gomod "$CYCLONEDX_GOMOD_VERSION" github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod

OUT=${KUDOS_AUDIT_DIR:-audit}
mkdir -p "$OUT"
found=0 unreachable=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The SBOMs first: they need no network.
say "SBOM of the Go module → $OUT/sbom-go.cdx.json"
bin/cyclonedx-gomod mod -licenses=false -json -output "$OUT/sbom-go.cdx.json" . >"$log" 2>&1 || { cat "$log" >&2; die "cyclonedx-gomod failed"; }
for pkg in ui e2e; do
  [ -d "$pkg/node_modules" ] || (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed in $pkg"
done
say "SBOM of the UI → $OUT/sbom-ui.cdx.json"
(cd ui && npm sbom --sbom-format cyclonedx --omit dev) >"$OUT/sbom-ui.cdx.json" 2>"$log" || { cat "$log" >&2; die "npm sbom failed"; }

say "govulncheck ./..."
bin/govulncheck ./... >"$log" 2>&1
case $? in
  0) say "Go: no known vulnerability reaches Kudos" ;;
  3) cat "$log"; say "Go: vulnerabilities found (above)"; found=1 ;;
  *) if grep -qiE 'fetching vulnerabilities|dial tcp|no such host|connection refused|i/o timeout|status code|TLS|x509' "$log"; then
       sed -n 1,5p "$log" >&2; say "Go: vulnerability database unreachable (${GOVULNDB:-https://vuln.go.dev})"; unreachable=1
     else
       cat "$log" >&2; die "govulncheck failed"
     fi ;;
esac

for pkg in ui e2e; do
  say "npm audit ($pkg)"
  (cd "$pkg" && npm audit --audit-level=low) >"$log" 2>&1
  rc=$?
  if [ "$rc" = 0 ]; then
    say "$pkg: no known vulnerability"
  elif grep -qE 'audit endpoint returned an error|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|Method Not Allowed|network' "$log"; then
    grep -E 'npm (warn|error)' "$log" | head -3 >&2; say "$pkg: vulnerability database unreachable (the registry's advisories)"; unreachable=1
  else
    cat "$log"; say "$pkg: vulnerabilities found (above)"; found=1
  fi
done

if [ "$found" = 1 ]; then exit 1; fi
if [ "$unreachable" = 1 ]; then
  say "vulnerability database unreachable: nothing was checked against it, so this is no pass (the SBOMs in $OUT/ are written: audit them where the databases can be reached)"
  exit 2
fi
say "audit passed; SBOMs in $OUT/"
