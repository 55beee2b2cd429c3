package bench

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// PlanFigure is one of the slowest statements the api and the worker ran
// during a step of the scale benchmark (pg_stat_statements), with its
// generic plan and whether that plan scans a table sequentially.
type PlanFigure struct {
	Query   string  `json:"query"`
	Calls   int64   `json:"calls"`
	MeanMs  float64 `json:"mean_ms"`
	SeqScan string  `json:"seq_scan,omitempty"` // the tables scanned, "" when none
	Plan    string  `json:"plan"`
}

var (
	paramRe   = regexp.MustCompile(`\$(\d+)`)
	seqScanRe = regexp.MustCompile(`Seq Scan on (\w+)`)
)

// benchStatement tells the benchmark's own statements (seeding, checks,
// the baselines' tables) from those of the api and the worker.
var benchStatement = regexp.MustCompile(`(?i)md5\(|generate_series|bench_|pg_stat|pg_database|pg_total|^\s*(ANALYZE|SET|SHOW|BEGIN|COMMIT|ROLLBACK|PREPARE|DEALLOCATE|EXPLAIN|CREATE|SELECT \$1)`)

// resetStatements starts pg_stat_statements afresh (false: not available,
// the cluster was started without it).
func resetStatements(ctx context.Context, e *Env) bool {
	if _, err := e.DB.Pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		return false
	}
	_, err := e.DB.Pool.Exec(ctx, `SELECT pg_stat_statements_reset()`)
	return err == nil
}

// slowestStatements returns the k statements of the api and the worker
// with the longest mean time since resetStatements, among those called at
// least minCalls times (the hot paths), each with its generic plan:
// prepared as the application prepares it and explained with
// plan_cache_mode = force_generic_plan, the plan any parameters get.
func slowestStatements(ctx context.Context, e *Env, k int, minCalls int64) ([]PlanFigure, error) {
	rows, err := e.DB.Pool.Query(ctx, `SELECT query, calls, mean_exec_time FROM pg_stat_statements
		WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND calls >= $1
		ORDER BY mean_exec_time DESC LIMIT 200`, minCalls)
	if err != nil {
		return nil, err
	}
	var all []PlanFigure
	for rows.Next() {
		var p PlanFigure
		if err := rows.Scan(&p.Query, &p.Calls, &p.MeanMs); err != nil {
			rows.Close()
			return nil, err
		}
		if !benchStatement.MatchString(p.Query) {
			all = append(all, p)
		}
	}
	rows.Close()
	conn, err := e.DB.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		return nil, err
	}
	defer conn.Exec(ctx, `RESET plan_cache_mode`) //nolint:errcheck // the connection goes back to the pool either way
	var out []PlanFigure
	for _, p := range all {
		if len(out) == k {
			break
		}
		n := 0
		for _, m := range paramRe.FindAllStringSubmatch(p.Query, -1) {
			v, _ := strconv.Atoi(m[1])
			n = max(n, v)
		}
		if _, err := conn.Exec(ctx, `PREPARE bench_plan AS `+p.Query); err != nil {
			continue // not preparable as it stands (a utility statement)
		}
		args := strings.TrimSuffix(strings.Repeat("NULL,", n), ",")
		explain := `EXPLAIN EXECUTE bench_plan`
		if n > 0 {
			explain += "(" + args + ")"
		}
		lines, err := conn.Query(ctx, explain)
		var plan []string
		if err == nil {
			for lines.Next() {
				var l string
				if lines.Scan(&l) == nil {
					plan = append(plan, l)
				}
			}
			lines.Close()
		}
		_, _ = conn.Exec(ctx, `DEALLOCATE bench_plan`)
		if len(plan) == 0 {
			continue
		}
		p.Plan = strings.Join(plan, "\n")
		var tables []string
		for _, m := range seqScanRe.FindAllStringSubmatch(p.Plan, -1) {
			tables = append(tables, m[1])
		}
		p.SeqScan = strings.Join(tables, ", ")
		p.Query = strings.Join(strings.Fields(p.Query), " ")
		out = append(out, p)
	}
	return out, nil
}

// bytesPerAccount is the size of the database, and of the tables an
// account's rows live in, divided by the accounts.
func bytesPerAccount(ctx context.Context, e *Env) (db, tables int64, accounts int64, err error) {
	err = e.DB.Pool.QueryRow(ctx, `SELECT pg_database_size(current_database()),
		(SELECT sum(pg_total_relation_size(t)) FROM unnest(ARRAY['users', 'accounts', 'memberships', 'subscriptions', 'invoices',
			'billing_events', 'sessions']::regclass[]) t)::bigint,
		(SELECT count(*) FROM accounts)`).Scan(&db, &tables, &accounts)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("sizes: %w", err)
	}
	return db, tables, accounts, nil
}
