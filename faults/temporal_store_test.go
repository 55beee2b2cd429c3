//go:build faults

package faults_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// temporalOnPostgres is true under KUDOS_TEMPORAL_PERSISTENCE=postgres: the
// stack's Temporal is bin/temporal-sql keeping its state in a Postgres
// cluster of its own instead of the dev server and its file
// (docs/scaling.md, "Temporal on PostgreSQL, measured here").
var temporalOnPostgres = os.Getenv("KUDOS_TEMPORAL_PERSISTENCE") == "postgres"

// TestTemporalPersistence shows which store the Temporal under test really
// writes to, so that a run meant for Postgres persistence cannot pass on the
// dev server's SQLite file.
func TestTemporalPersistence(t *testing.T) {
	want := "sqlite"
	if temporalOnPostgres {
		want = "postgres12"
	}
	info, err := st.temporalClient.WorkflowService().GetClusterInfo(context.Background(), &workflowservice.GetClusterInfoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Temporal %s: persistence %s, visibility %s, %d history shards", info.ServerVersion,
		info.PersistenceStore, info.VisibilityStore, info.HistoryShardCount)
	if info.PersistenceStore != want || info.VisibilityStore != want {
		t.Fatalf("persistence %s and visibility %s, want %s for both", info.PersistenceStore, info.VisibilityStore, want)
	}
}

// chooseTemporal reads KUDOS_TEMPORAL_PERSISTENCE: empty for the dev server,
// postgres for bin/temporal-sql with its cluster in
// KUDOS_FAULTS_TEMPORAL_PG_DIR (default: in the run's work directory, gone
// after it) on KUDOS_FAULTS_TEMPORAL_PG_PORT (56450), frontend on
// KUDOS_FAULTS_TEMPORAL_PORT (7933 in this mode) and the next 13 ports.
func (s *stack) chooseTemporal() error {
	switch p := os.Getenv("KUDOS_TEMPORAL_PERSISTENCE"); p {
	case "":
		return nil
	case "postgres":
		s.temporalPgDir = os.Getenv("KUDOS_FAULTS_TEMPORAL_PG_DIR")
		if s.temporalPgDir == "" {
			s.temporalPgDir = filepath.Join(s.work, "temporal-pg")
		}
		s.temporalPgPort = envInt("KUDOS_FAULTS_TEMPORAL_PG_PORT", 56450)
		s.temporalPort = envInt("KUDOS_FAULTS_TEMPORAL_PORT", 7933)
		return nil
	default:
		return fmt.Errorf("KUDOS_TEMPORAL_PERSISTENCE=%s: only postgres (or nothing, for the dev server) is known", p)
	}
}

// startTemporalSQL starts bin/temporal-sql (tools/temporal-sql) on the
// cluster temporal_sql_setup prepared: what scripts/lib.sh
// temporal_sql_start does, kept here as an *exec.Cmd the tests can stop.
func (s *stack) startTemporalSQL() error {
	s.temporal = exec.Command(filepath.Join(s.root, "bin", "temporal-sql"), "start",
		filepath.Join(s.root, "tools", "temporal-sql", "config"))
	s.temporal.Env = append(os.Environ(), fmt.Sprintf("TEMPORAL_SQL_PORT=%d", s.temporalPort),
		fmt.Sprintf("TEMPORAL_SQL_PG_PORT=%d", s.temporalPgPort), "TEMPORAL_SQL_LOG_LEVEL=error")
	if err := s.startLogged(s.temporal, "temporal"); err != nil {
		return err
	}
	if err := waitPort(s.temporalPort, 120*time.Second); err != nil {
		return err
	}
	// The frontend listens before its membership ring has formed; until
	// then it answers "Frontend is not healthy yet", which Dial checks.
	deadline := time.Now().Add(120 * time.Second)
	for {
		c, err := client.Dial(client.Options{HostPort: fmt.Sprintf("127.0.0.1:%d", s.temporalPort),
			Logger: tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("temporal-sql not healthy: %w\n%s", err, s.logTail("temporal"))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// temporalSetup registers the namespace and Kudos's search attributes with
// `kudos temporal setup`, as an operator does on a new self-hosted cluster
// (the dev server makes the namespace itself).
func (s *stack) temporalSetup() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.root, "bin", "kudos"), "temporal", "setup")
	cmd.Env = s.env()
	cmd.Dir = s.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("kudos temporal setup: %v\n%s", err, out)
	}
	return nil
}
