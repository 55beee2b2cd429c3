package store

import (
	"context"
	"time"
)

// SweepSubscriptions names the sweep that restarts lost subscription
// workflows (dispatch.Reconciler.Walk) in the sweeps table.
const SweepSubscriptions = "subscriptions"

// FinishSweep records that sweep name walked its last page at at.
func (db *DB) FinishSweep(ctx context.Context, name string, at time.Time) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO sweeps (name, finished_at) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET finished_at = GREATEST(sweeps.finished_at, EXCLUDED.finished_at)`, name, at)
	return wrapErr(err)
}

// SweepFinishedAt is when sweep name last walked its last page (nil before
// it ever did).
func (db *DB) SweepFinishedAt(ctx context.Context, name string) (*time.Time, error) {
	var at *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT max(finished_at) FROM sweeps WHERE name = $1`, name).Scan(&at)
	return at, wrapErr(err)
}
