// Package faults holds the fault tests of Kudos (issue 8): real api and
// worker processes on a private Postgres cluster and Temporal dev server,
// which the tests kill, stop and restart while work is under way, then
// check against Postgres that nothing was lost and nothing done twice.
//
// The tests carry the build tag "faults" and are run by scripts/faults.sh:
// the fast set in make test, every test with long outages in make chaos.
package faults
