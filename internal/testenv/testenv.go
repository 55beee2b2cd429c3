// Package testenv gives integration tests the real services that `make test`
// starts: a fresh Postgres database per test and a client of the Temporal
// dev server. Outside `make test`, point KUDOS_TEST_DATABASE_URL (a URL of a
// role allowed to create databases) and KUDOS_TEST_TEMPORAL_ADDRESS at your
// own services.
package testenv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"

	"kudos/store"
	"kudos/tracing"
)

// DatabaseURL returns the admin database URL of the test cluster.
func DatabaseURL(t testing.TB) string {
	u := os.Getenv("KUDOS_TEST_DATABASE_URL")
	if u == "" {
		t.Fatal("KUDOS_TEST_DATABASE_URL is not set: run the tests with `make test`, which starts Postgres and Temporal")
	}
	return u
}

// DB returns a store on a new, migrated database that is dropped when the
// test ends. Databases are cloned from a template migrated once per schema
// version, which keeps a fresh database per test cheap.
func DB(t testing.TB) *store.DB {
	t.Helper()
	ctx := context.Background()
	admin := DatabaseURL(t)
	tmpl := ensureTemplate(t, admin)
	name := "t_" + strings.ReplaceAll(uuid.NewString(), "-", "")
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("testenv: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, fmt.Sprintf(`CREATE DATABASE %s TEMPLATE %s`, name, tmpl)); err != nil {
		t.Fatalf("testenv: create database: %v", err)
	}
	db, err := store.Open(ctx, withDatabase(admin, name))
	if err != nil {
		t.Fatalf("testenv: open: %v", err)
	}
	t.Cleanup(func() {
		db.Close()
		c, err := pgx.Connect(context.Background(), admin)
		if err == nil {
			_, _ = c.Exec(context.Background(), fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, name))
			c.Close(context.Background())
		}
	})
	return db
}

// ensureTemplate makes the template database for the current migrations if
// it does not exist yet; an advisory lock serialises test processes.
func ensureTemplate(t testing.TB, admin string) string {
	ctx := context.Background()
	name := "kudos_tmpl_" + migrationsHash(t)
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("testenv: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(424242)`); err != nil {
		t.Fatalf("testenv: lock: %v", err)
	}
	defer conn.Exec(ctx, `SELECT pg_advisory_unlock(424242)`) //nolint:errcheck
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	if exists {
		return name
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf(`CREATE DATABASE %s`, name)); err != nil {
		t.Fatalf("testenv: create template: %v", err)
	}
	db, err := store.Open(ctx, withDatabase(admin, name))
	if err != nil {
		t.Fatalf("testenv: open template: %v", err)
	}
	err = db.Migrate(ctx)
	db.Close()
	if err != nil {
		_, _ = conn.Exec(ctx, fmt.Sprintf(`DROP DATABASE %s`, name))
		t.Fatalf("testenv: migrate template: %v", err)
	}
	return name
}

func migrationsHash(t testing.TB) string {
	h := sha256.New()
	err := fs.WalkDir(store.Migrations(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(store.Migrations(), p)
		h.Write([]byte(p))
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func withDatabase(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

// TemporalAddress returns the host:port of the test Temporal server.
func TemporalAddress(t testing.TB) string {
	a := os.Getenv("KUDOS_TEST_TEMPORAL_ADDRESS")
	if a == "" {
		t.Fatal("KUDOS_TEST_TEMPORAL_ADDRESS is not set: run the tests with `make test`, which starts Postgres and Temporal")
	}
	return a
}

// SuggestContinueAsNew is the history length at which the test Temporal
// server suggests continue-as-new (KUDOS_TEST_SUGGEST_CAN: make test starts
// it with limit.historyCount.suggestContinueAsNew set to it).
func SuggestContinueAsNew(t testing.TB) int {
	n, err := strconv.Atoi(os.Getenv("KUDOS_TEST_SUGGEST_CAN"))
	if err != nil || n <= 0 {
		t.Fatal("KUDOS_TEST_SUGGEST_CAN is not set: run the tests with `make test`, whose Temporal server suggests continue-as-new early")
	}
	return n
}

// Temporal returns a client of the test Temporal server, closed at the end.
func Temporal(t testing.TB) client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// With the tracing interceptor, as production's (app.TemporalOptions):
	// tests that look at traces find Temporal's spans.
	c, err := client.DialContext(ctx, client.Options{HostPort: TemporalAddress(t), Logger: quietLogger{},
		Interceptors: []interceptor.ClientInterceptor{tracing.TemporalInterceptor()}})
	if err != nil {
		t.Fatalf("testenv: temporal: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

// quietLogger drops the SDK's logs, which would drown test output.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}
