//go:build faults

package faults_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// stack is a private Kudos: Postgres, a Temporal dev server that keeps its
// state in a file (so it can be stopped and started again), or with
// KUDOS_TEMPORAL_PERSISTENCE=postgres a Temporal server on a Postgres
// cluster of its own, and the api and worker as separate processes of
// bin/kudos.
type stack struct {
	root, work            string
	pgDir, temporalPgDir  string
	pgPort, temporalPort  int
	temporalPgPort        int
	httpPort              int
	databaseURL, baseURL  string
	temporal, api, worker *exec.Cmd
	db                    *pgxpool.Pool
	temporalClient        client.Client
}

var st *stack

// long is true under make chaos: outages last as long as issue 8 says.
var long = os.Getenv("KUDOS_FAULTS_LONG") != ""

func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err != nil {
		return def
	}
	return n
}

func TestMain(m *testing.M) {
	code, err := runStack(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		code = 1
	}
	os.Exit(code)
}

func runStack(m *testing.M) (int, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return 0, err
	}
	work, err := os.MkdirTemp("", "kudos-faults-")
	if err != nil {
		return 0, err
	}
	_ = os.Chmod(work, 0o755)
	s := &stack{root: root, work: work, pgDir: filepath.Join(work, "pg"),
		pgPort: envInt("KUDOS_FAULTS_PG_PORT", 54379), temporalPort: envInt("KUDOS_FAULTS_TEMPORAL_PORT", 7283),
		httpPort: envInt("KUDOS_FAULTS_HTTP_PORT", 18480)}
	if err := s.chooseTemporal(); err != nil {
		return 0, err
	}
	s.databaseURL = fmt.Sprintf("postgres://kudos@127.0.0.1:%d/kudos?sslmode=disable", s.pgPort)
	s.baseURL = fmt.Sprintf("http://127.0.0.1:%d", s.httpPort)
	st = s
	defer s.teardown()
	if err := s.startPostgres(); err != nil {
		return 0, err
	}
	if temporalOnPostgres {
		if err := s.pg(fmt.Sprintf("temporal_sql_setup %s %d", s.temporalPgDir, s.temporalPgPort)); err != nil {
			return 0, err
		}
	}
	if err := s.startTemporal(); err != nil {
		return 0, err
	}
	if temporalOnPostgres {
		if err := s.temporalSetup(); err != nil {
			return 0, err
		}
	}
	if s.db, err = pgxpool.New(context.Background(), s.databaseURL); err != nil {
		return 0, err
	}
	s.temporalClient, err = client.NewLazyClient(client.Options{HostPort: fmt.Sprintf("127.0.0.1:%d", s.temporalPort),
		Logger: tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	if err != nil {
		return 0, err
	}
	if err := s.startAPI(); err != nil {
		return 0, err
	}
	if err := s.startWorker(); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

func (s *stack) teardown() {
	for _, c := range []*exec.Cmd{s.worker, s.api, s.temporal} {
		stop(c, syscall.SIGTERM)
	}
	if s.db != nil {
		s.db.Close()
	}
	if s.temporalClient != nil {
		s.temporalClient.Close()
	}
	_ = s.pg("pg_stop " + s.pgDir)
	if s.temporalPgDir != "" {
		_ = s.pg("pg_stop " + s.temporalPgDir)
	}
	_ = os.RemoveAll(s.work)
}

// pg runs a shell line with scripts/lib.sh loaded (its Postgres helpers run
// initdb and pg_ctl as the postgres user when we are root).
func (s *stack) pg(line string) error {
	cmd := exec.Command("bash", "-c", "source scripts/lib.sh && "+line)
	cmd.Dir = s.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", line, err, out)
	}
	return nil
}

func (s *stack) startPostgres() error {
	return s.pg(fmt.Sprintf("pg_start %s %d fast", s.pgDir, s.pgPort))
}

// restartPostgres stops the cluster (fast shutdown: sessions are cut), waits,
// and starts it again.
func (s *stack) restartPostgres(down time.Duration) error {
	if err := s.pg("pg_stop " + s.pgDir); err != nil {
		return err
	}
	time.Sleep(down)
	return s.startPostgres()
}

func (s *stack) startTemporal() error {
	if temporalOnPostgres {
		return s.startTemporalSQL()
	}
	s.temporal = exec.Command(filepath.Join(s.root, "bin", "temporal"), "server", "start-dev", "--ip", "127.0.0.1",
		"--port", fmt.Sprint(s.temporalPort), "--headless", "--log-level", "error",
		"--db-filename", filepath.Join(s.work, "temporal.db"),
		"--search-attribute", "AccountId=Keyword", "--search-attribute", "Plan=Keyword",
		"--search-attribute", "SubscriptionStatus=Keyword", "--search-attribute", "PaymentState=Keyword",
		"--search-attribute", "PaymentStateSince=Datetime", "--search-attribute", "DisputeOpen=Bool")
	if err := s.startLogged(s.temporal, "temporal"); err != nil {
		return err
	}
	return waitPort(s.temporalPort, 60*time.Second)
}

// stopTemporal stops the Temporal server; its state stays in the file (or
// in its Postgres cluster, which stays up).
func (s *stack) stopTemporal() {
	stop(s.temporal, syscall.SIGTERM)
	s.temporal = nil
}

// env is the environment of the kudos processes.
func (s *stack) env() []string {
	return append(os.Environ(),
		"KUDOS_ENV=development",
		"KUDOS_HTTP_ADDR="+strings.TrimPrefix(s.baseURL, "http://"), "KUDOS_METRICS_ADDR=127.0.0.1:0",
		"KUDOS_PUBLIC_URL="+s.baseURL,
		"DATABASE_URL="+s.databaseURL,
		fmt.Sprintf("TEMPORAL_ADDRESS=127.0.0.1:%d", s.temporalPort),
		"KUDOS_TASK_QUEUE=kudos-faults",
		fmt.Sprintf("KUDOS_DEV_S3_ADDR=127.0.0.1:%d", s.httpPort+1000),
		fmt.Sprintf("KUDOS_DEV_SMTP_ADDR=127.0.0.1:%d", s.httpPort-5900),
		fmt.Sprintf("KUDOS_DEV_OIDC_ADDR=127.0.0.1:%d", s.httpPort+2),
		"KUDOS_LOG_LEVEL=info",
	)
}

func (s *stack) startAPI() error {
	s.api = exec.Command(filepath.Join(s.root, "bin", "kudos"), "api")
	s.api.Env = s.env()
	if err := s.startLogged(s.api, "api"); err != nil {
		return err
	}
	return waitHTTP(s.baseURL+"/readyz", 60*time.Second)
}

// startWorker starts a worker process and waits until it polls.
func (s *stack) startWorker() error {
	s.worker = exec.Command(filepath.Join(s.root, "bin", "kudos"), "worker")
	s.worker.Env = s.env()
	logPath := filepath.Join(s.work, "worker.log")
	before, _ := os.ReadFile(logPath)
	if err := s.startLogged(s.worker, "worker"); err != nil {
		return err
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		out, _ := os.ReadFile(logPath)
		if strings.Contains(string(out[min(len(before), len(out)):]), "worker polling") {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the worker did not start polling; see %s", logPath)
}

// killWorker ends the worker with SIGKILL: no clean shutdown, activities
// in flight are lost with it.
func (s *stack) killWorker() {
	stop(s.worker, syscall.SIGKILL)
	s.worker = nil
}

// startLogged starts cmd with its output appended to work/name.log.
func (s *stack) startLogged(cmd *exec.Cmd, name string) error {
	f, err := os.OpenFile(filepath.Join(s.work, name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Dir = s.root
	return cmd.Start()
}

// logTail is the end of a process log, for failure messages.
func (s *stack) logTail(name string) string {
	out, _ := os.ReadFile(filepath.Join(s.work, name+".log"))
	if len(out) > 3000 {
		out = out[len(out)-3000:]
	}
	return string(out)
}

func stop(c *exec.Cmd, sig syscall.Signal) {
	if c == nil || c.Process == nil {
		return
	}
	_ = c.Process.Signal(sig)
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = c.Process.Kill()
		<-done
	}
}

func waitPort(port int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			_ = c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("nothing listens on port %d", port)
}

func waitHTTP(url string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if res, err := httpClient.Get(url); err == nil {
			_ = res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer 200", url)
}
