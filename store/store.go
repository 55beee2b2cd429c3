// Package store is the Postgres read model of Kudos, accessed with pgx and
// squirrel. Each aggregate has its own file; every public method owns its
// transaction. SQL migrations are embedded and applied with goose.
package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"kudos"
	"kudos/tracing"
)

//go:embed migrations/*.sql
var migrations embed.FS

// psql builds statements with Postgres placeholders.
var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar)

// DB is the store: a connection pool plus the clock used for timestamps.
type DB struct {
	Pool *pgxpool.Pool
	// clock returns the current time; tests replace it with SetClock while
	// the relay and the api read it from other goroutines, hence atomic.
	clock atomic.Pointer[func() time.Time]
	// SessionIdle ends a session unused for this long (KUDOS_SESSION_IDLE;
	// zero means DefaultSessionIdle).
	SessionIdle time.Duration
}

// DefaultSessionIdle is the idle timeout of a session when none is set.
const DefaultSessionIdle = 24 * time.Hour

// idleSince is the last use before which a session has idled out.
func (db *DB) idleSince(now time.Time) time.Time {
	if db.SessionIdle <= 0 {
		return now.Add(-DefaultSessionIdle)
	}
	return now.Add(-db.SessionIdle)
}

// DefaultMaxConns is the size of the connection pool unless DATABASE_URL
// sets pool_max_conns.
const DefaultMaxConns = 16

// Open connects to Postgres and checks the connection.
func Open(ctx context.Context, databaseURL string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: parse DATABASE_URL: %w", err)
	}
	cfg.MaxConnIdleTime = time.Minute
	// Queries join the trace of the work that runs them (statement text,
	// never argument values: tracing.PGX).
	cfg.ConnConfig.Tracer = tracing.PGX{}
	if !strings.Contains(databaseURL, "pool_max_conns") {
		// pgxpool's default (the number of CPUs, at least 4) is too few
		// beside the outbox relay's claim, which holds a connection while
		// the workflows accept what it delivers.
		cfg.MaxConns = max(cfg.MaxConns, DefaultMaxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: connect: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: ping: %w", err)
	}
	return &DB{Pool: pool}, nil
}

// Close releases the pool.
func (db *DB) Close() { db.Pool.Close() }

// Ping reports whether Postgres answers (readiness).
func (db *DB) Ping(ctx context.Context) error { return db.Pool.Ping(ctx) }

// Migrate applies every embedded migration that has not run yet.
func (db *DB) Migrate(ctx context.Context) error {
	// A session lock keeps an api and a worker starting together from
	// migrating at the same time.
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, stdlib.OpenDBFromPool(db.Pool), Migrations(), goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	return nil
}

// inTx runs fn in a transaction (with opts[0], if given) and commits it if
// fn returns nil.
func (db *DB) inTx(ctx context.Context, fn func(tx pgx.Tx) error, opts ...pgx.TxOptions) error {
	var o pgx.TxOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	tx, err := db.Pool.BeginTx(ctx, o)
	if err != nil {
		return wrapErr(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	return wrapErr(tx.Commit(ctx))
}

// exec runs a squirrel statement.
func exec(ctx context.Context, q pgx.Tx, b sq.Sqlizer) (pgconn.CommandTag, error) {
	sql, args, err := b.ToSql()
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := q.Exec(ctx, sql, args...)
	return tag, wrapErr(err)
}

// wrapErr turns an unreachable database into EUnavailable, so that the api
// answers 503 instead of 500 while Postgres restarts.
func wrapErr(err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code[:2] {
		case "08", "57": // connection exception, operator intervention (shutdown)
			return &kudos.Error{Code: kudos.EUnavailable, Message: "Service unavailable"}
		}
		return err
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) || pgconn.SafeToRetry(err) || errors.Is(err, context.DeadlineExceeded) {
		return &kudos.Error{Code: kudos.EUnavailable, Message: "Service unavailable"}
	}
	return err
}

// isUniqueViolation reports whether err is a unique-constraint violation.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// notFound maps a query that found no row to kudos.NotFound; other errors
// go through wrapErr.
func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return kudos.NotFound()
	}
	return wrapErr(err)
}

// InTx runs fn in one transaction, for an adapter that keeps tables of its
// own (the payment sandbox) and must change them atomically with rows of
// the store (RecordPaymentEventTx). fn's errors go through Classify.
func (db *DB) InTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return Classify(fn(tx)) })
}

// Classify maps a database error the way every store method does: no row
// is kudos.NotFound, an unreachable database kudos.EUnavailable.
func Classify(err error) error { return notFound(err) }

// querier is what a pool and a transaction have in common.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Now is the store's current time (its clock, see SetClock).
func (db *DB) Now() time.Time { return db.ClockFunc()() }

// ClockFunc returns the clock Now reads: time.Now unless SetClock replaced it.
func (db *DB) ClockFunc() func() time.Time {
	if f := db.clock.Load(); f != nil {
		return *f
	}
	return time.Now
}

// SetClock replaces the clock (tests move time with it); safe while other
// goroutines call Now.
func (db *DB) SetClock(f func() time.Time) { db.clock.Store(&f) }
