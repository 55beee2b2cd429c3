package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos/internal/testenv"
	"kudos/store"
)

// planRows is how many rows each table of a plan test holds: enough that a
// scan of the whole table costs more than an index, as at scale.
const planRows = 20000

// seedForPlans fills the tables the erasures and the credit notes touch
// with planRows rows each (ANALYZEd), spread over 200 accounts, and
// returns one account and one user that the rows name.
func seedForPlans(t *testing.T, db *store.DB) (account, user uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO accounts (id, name) SELECT gen_random_uuid(), 'a' || i FROM generate_series(1, 200) i`,
		`INSERT INTO users (id, email, firstname, lastname, last_account_id)
			SELECT gen_random_uuid(), 'u' || i || '@example.com', 'F', 'L', a.ids[1 + i % 200]
			FROM generate_series(1, $1::int) i, (SELECT array_agg(id) ids FROM accounts) a`,
		`INSERT INTO billing_events (account_id, at, type, key, member_email, role, actor_email)
			SELECT a.ids[1 + i % 200], now(), 'member_joined', 'k' || i, 'U' || i || '@example.com', 'member', 'u' || (i + 1) || '@example.com'
			FROM generate_series(1, $1::int) i, (SELECT array_agg(id) ids FROM accounts) a`,
		`INSERT INTO invitations (id, account_id, email, role, token_hash, created_at, expires_at, status, ended_at, invited_by, accepted_by)
			SELECT gen_random_uuid(), a.ids[1 + i % 200], 'u' || i || '@example.com', 'member', decode(md5(i::text), 'hex'), now(), now(),
				'accepted', now(), u.ids[1 + (i + 1) % $1::int], u.ids[1 + i % $1::int]
			FROM generate_series(1, $1::int) i, (SELECT array_agg(id) ids FROM accounts) a, (SELECT array_agg(id) ids FROM users) u`,
		`INSERT INTO feature_requests (account_id, user_id, area, profile, description)
			SELECT a.ids[1 + i % 200], u.ids[1 + i % $1::int], 'x', 'y', 'z'
			FROM generate_series(1, $1::int) i, (SELECT array_agg(id) ids FROM accounts) a, (SELECT array_agg(id) ids FROM users) u`,
		`INSERT INTO outbox (key, kind, workflow_id, payload, delivered_at)
			SELECT 'mail:' || i, 'mail', 'email:' || i, jsonb_build_object('to', 'u' || i || '@example.com', 'key', 'k' || i,
				'billing', jsonb_build_object('account_id', a.ids[1 + i % 200])), now()
			FROM generate_series(1, $1::int) i, (SELECT array_agg(id) ids FROM accounts) a`,
	} {
		args := []any{}
		if strings.Contains(q, "$1") {
			args = append(args, planRows)
		}
		if _, err := db.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := db.Pool.Exec(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT id, last_account_id FROM users WHERE email = 'u7@example.com'`).Scan(&user, &account); err != nil {
		t.Fatal(err)
	}
	return account, user
}

// explain is the plan of q run with args.
func explain(t *testing.T, db *store.DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), "EXPLAIN "+q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return plan.String()
}

// wantNoSeqScan fails when the plan of q (run with args) reads one of
// tables whole.
func wantNoSeqScan(t *testing.T, db *store.DB, q string, args []any, tables ...string) {
	t.Helper()
	plan := explain(t, db, q, args...)
	for _, table := range tables {
		if strings.Contains(plan, "Seq Scan on "+table+" ") || strings.HasSuffix(strings.TrimSpace(plan), "Seq Scan on "+table) {
			t.Errorf("%s\nscans %s whole:\n%s", q, table, plan)
		}
	}
}

// erasedTables are the tables an erasure must reach through an index. The
// outbox is not one here: the delivered entries naming the account are
// found through the index of the ids they name
// (TestAccountErasureFindsItsOutboxThroughAnIndex), those naming one of a
// user's addresses by a substring of the payload (kept for the relay's
// Retention only), which a trigram index would serve at a size larger
// than the table's own.
var erasedTables = []string{"billing_events", "invitations", "users", "feature_requests"}

// TestErasuresUseIndexes: erasing an account or a user finds the rows that
// name them through indexes. Before, the addresses in the timeline and
// the invitations, the users who last opened the account and the delivered
// outbox were each read whole, inside the erasure's one transaction under
// its activity's one-minute timeout.
func TestErasuresUseIndexes(t *testing.T) {
	db := testenv.DB(t)
	account, user := seedForPlans(t, db)
	for _, q := range store.AccountErasure {
		wantNoSeqScan(t, db, q, []any{account}, erasedTables...)
	}
	// An address nobody else had (no bounds) and a shared one (its stint).
	addresses := []string{"u7@example.com", "old-u7@example.com"}
	from, to := time.Now().Add(-time.Hour), time.Now()
	since, until := []*time.Time{nil, &from}, []*time.Time{nil, &to}
	for _, q := range store.UserAddressErasure {
		wantNoSeqScan(t, db, q, []any{addresses, since, until}, erasedTables...)
	}
	wantNoSeqScan(t, db, store.StintsSQL, []any{user}, "users")
	for _, q := range append(store.UserErasure,
		// What deleting the user's row does to the rows that point at it
		// (foreign keys: SET NULL, CASCADE).
		`UPDATE invitations SET invited_by = NULL WHERE invited_by = $1`,
		`UPDATE invitations SET accepted_by = NULL WHERE accepted_by = $1`,
		`DELETE FROM feature_requests WHERE user_id = $1`) {
		wantNoSeqScan(t, db, q, []any{user}, erasedTables...)
	}
}

// TestCreditNotesAreAddedUpThroughAnIndex: issuing a credit note adds up
// the invoice's earlier ones while its row is locked, and deleting a
// dropped draft checks that no credit note corrects it; both find the
// credit notes through an index. Before, invoices.corrects had none: each
// read every invoice of every account.
func TestCreditNotesAreAddedUpThroughAnIndex(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) SELECT gen_random_uuid(), 'a' || i FROM generate_series(1, 200) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO invoices (id, account_id, kind, plan, description, net_amount, vat_amount, vat_rate,
			total_amount, currency, status)
		SELECT gen_random_uuid(), a.ids[1 + i % 200], 'RENEWAL', 'PRO', 'Renewal', 1000, 210, 21, 1210, 'EUR', 'PROCESSING'
		FROM generate_series(1, $1::int) i, (SELECT array_agg(id) ids FROM accounts) a`, planRows); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	var invoice uuid.UUID
	if err := db.Pool.QueryRow(ctx, `SELECT id FROM invoices LIMIT 1`).Scan(&invoice); err != nil {
		t.Fatal(err)
	}
	wantNoSeqScan(t, db, store.Credited, []any{invoice, "CREDIT_NOTE"}, "invoices")
	// What the foreign key of corrects checks when an invoice is deleted.
	wantNoSeqScan(t, db, `SELECT 1 FROM ONLY invoices x WHERE $1 = corrects FOR KEY SHARE OF x`, []any{invoice}, "invoices")
}
