package api_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// volatileColumns are written by background work whatever the requests do
// (the outbox relay's delivery bookkeeping): they are left out of snapshots.
var volatileColumns = map[string][]string{
	"outbox": {"attempts", "next_attempt_at", "last_error", "delivered_at", "leased_until"},
}

// volatileTables are left out of snapshots whole: the rate limits count
// refused requests too (that is their job).
var volatileTables = []string{"rate_limits"}

// dbSnapshot is, per table of the public schema, its row count and a digest
// of its rows: two equal snapshots mean no row was added, removed or changed.
type dbSnapshot map[string]string

// snapshotSQL builds one statement that digests every table, found in the
// catalogue so that tables added by later migrations are covered too.
func (h *harness) snapshotSQL() string {
	h.t.Helper()
	ctx := context.Background()
	rows, err := h.db.Pool.Query(ctx, `SELECT c.table_name, c.column_name FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		h.t.Fatalf("snapshot: list columns: %v", err)
	}
	columns := map[string][]string{}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			h.t.Fatalf("snapshot: %v", err)
		}
		if !slices.Contains(volatileColumns[table], column) && !slices.Contains(volatileTables, table) {
			columns[table] = append(columns[table], pgx.Identifier{column}.Sanitize())
		}
	}
	if err := rows.Err(); err != nil {
		h.t.Fatalf("snapshot: %v", err)
	}
	var parts []string
	for _, table := range slices.Sorted(maps.Keys(columns)) {
		parts = append(parts, fmt.Sprintf(`SELECT %s::text, count(*)::text || ' rows ' || coalesce(md5(string_agg(r, E'\n' ORDER BY r)), '')
			FROM (SELECT ROW(%s)::text AS r FROM %s) s`, quoteLiteral(table), strings.Join(columns[table], ", "), pgx.Identifier{table}.Sanitize()))
	}
	return strings.Join(parts, "\nUNION ALL\n")
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// snapshot digests the database with query (from snapshotSQL).
func (h *harness) snapshot(t *testing.T, query string) dbSnapshot {
	t.Helper()
	rows, err := h.db.Pool.Query(context.Background(), query)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	snap := dbSnapshot{}
	for rows.Next() {
		var table, digest string
		if err := rows.Scan(&table, &digest); err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		snap[table] = digest
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return snap
}

// changedTables lists the tables whose digest differs between a and b.
func changedTables(a, b dbSnapshot) []string {
	var out []string
	for table := range a {
		if a[table] != b[table] {
			out = append(out, table)
		}
	}
	slices.Sort(out)
	return out
}

// settle waits until the background work started by the set-up (outbox
// deliveries, workflows writing their read model, with a worker the mails
// queued) is over: nothing left to deliver or send and the same snapshot
// for a second.
func (h *harness) settle(t *testing.T, query string) dbSnapshot {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	last, stable := h.snapshot(t, query), 0
	for stable < 4 {
		if time.Now().After(deadline) {
			t.Fatal("the database did not settle within 30 s")
		}
		time.Sleep(250 * time.Millisecond)
		var pending, unsent int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE delivered_at IS NULL`).Scan(&pending)
		if h.tc != nil {
			// A worker sends the queued mails: one delivered to its
			// workflow but not sent yet would change sent_mails later.
			_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox o WHERE o.kind = 'mail'
				AND NOT EXISTS (SELECT 1 FROM sent_mails s WHERE s.key = o.payload->>'key')`).Scan(&unsent)
		}
		snap := h.snapshot(t, query)
		if pending == 0 && unsent == 0 && len(changedTables(last, snap)) == 0 {
			stable++
		} else {
			stable = 0
		}
		last = snap
	}
	return last
}

// knownErrorCodes are the codes an error answer may carry (kudos error.go).
var knownErrorCodes = []string{"bad_request", "unauthorized", "forbidden", "user_not_activated", "not_found", "conflict",
	"payload_too_large", "unprocessable_entity", "too_many_requests", "passwords_do_not_match", "internal", "unavailable",
	"seat_limit", "invitation_email_mismatch", "email_not_verified", "reauthentication_required", "second_factor_required", "mfa_enrolment_required",
	"account_being_deleted", "price_changed"}

// checkErrorShape reports how r departs from the one error shape of
// ARCHITECTURE §4: {"error":{"status","code","message","fields"?}} and
// nothing else, the status equal to the HTTP one, fields a map of strings.
func checkErrorShape(r response) error {
	if len(r.Body) != 1 {
		return fmt.Errorf("want exactly one top-level key \"error\": %s", r.Raw)
	}
	e, ok := r.Body["error"].(map[string]any)
	if !ok {
		return fmt.Errorf("no error object: %s", r.Raw)
	}
	for key := range e {
		if !slices.Contains([]string{"status", "code", "message", "fields"}, key) {
			return fmt.Errorf("unexpected key %q in the error: %s", key, r.Raw)
		}
	}
	if e["status"] != float64(r.Status) {
		return fmt.Errorf("error.status %v, HTTP status %d", e["status"], r.Status)
	}
	if code, _ := e["code"].(string); !slices.Contains(knownErrorCodes, code) {
		return fmt.Errorf("unknown error.code %q", code)
	}
	if msg, _ := e["message"].(string); msg == "" {
		return fmt.Errorf("empty error.message: %s", r.Raw)
	}
	if f, present := e["fields"]; present {
		fields, ok := f.(map[string]any)
		if !ok || len(fields) == 0 {
			return fmt.Errorf("error.fields must be a non-empty object: %s", r.Raw)
		}
		for name, v := range fields {
			if s, ok := v.(string); !ok || s == "" {
				return fmt.Errorf("error.fields[%q] must be a code: %s", name, r.Raw)
			}
		}
	}
	return nil
}
