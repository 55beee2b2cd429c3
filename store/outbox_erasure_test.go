package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"kudos/internal/testenv"
	"kudos/store"
)

// outboxRows is how many delivered entries the outbox holds in the test of
// the account erasure's plan: a week of deliveries (dispatch.Retention) of
// a modest customer base, 20 entries each for 5 000 other accounts.
const outboxRows = 100000

// TestAccountErasureFindsItsOutboxThroughAnIndex: the account erasure's
// delivery of the delivered outbox entries that name the account goes
// through an index of the ids each entry names, so its cost is the
// account's entries, not the week's traffic of every account; and it
// finds the same entries as the substring match it replaces, wherever in
// the payload the id stands. Before, each erasure read every delivered
// entry (kept 7 days) and every payload as text.
func TestAccountErasureFindsItsOutboxThroughAnIndex(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, _ := seedForPlans(t, db)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO outbox (key, kind, workflow_id, payload, delivered_at)
		SELECT 'other:' || i, 'mail', 'email:other:' || i, jsonb_build_object('to', 'o' || i || '@example.com',
			'billing', jsonb_build_object('account_id', a.ids[1 + i % 5000], 'invoice_id', gen_random_uuid())), now()
		FROM generate_series(1, $1::int) i, (SELECT array_agg(gen_random_uuid()) ids FROM generate_series(1, 5000)) a`,
		outboxRows); err != nil {
		t.Fatal(err)
	}
	// The account's id in other places of a payload: at the top, in a
	// workflow start's nested input, inside a link, in a list; one entry
	// still waiting (not delivered: it stays).
	id := account.String()
	for i, payload := range []string{
		`{"account_id": "` + id + `"}`,
		`{"input": {"account": {"id": "` + id + `"}, "plan": "PRO"}}`,
		`{"to": "x@example.com", "team": {"url": "https://kudos.example/dashboard/` + id + `/team?x=1"}}`,
		`{"ids": ["` + uuid.NewString() + `", "` + id + `"]}`,
		`{"account": "` + strings.ToUpper(id) + `"}`,
	} {
		if _, err := db.Pool.Exec(ctx, `INSERT INTO outbox (key, kind, workflow_id, payload, delivered_at) VALUES ($1, 'x', 'w', $2, now())`,
			"shape:"+string(rune('a'+i)), payload); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO outbox (key, kind, workflow_id, payload) VALUES ('pending', 'x', 'w', $1)`,
		`{"account_id": "`+id+`"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}

	var outbox string
	for _, q := range store.AccountErasure {
		if strings.Contains(q, "FROM outbox") {
			outbox = q
		}
	}
	if outbox == "" {
		t.Fatal("the account erasure no longer deletes the outbox entries that name the account")
	}
	plan := explain(t, db, outbox, account)
	if !strings.Contains(plan, "outbox_delivered_ids_idx") || strings.Contains(plan, "Seq Scan on outbox") {
		t.Fatalf("%s\nreads the delivered outbox whole, not through the index of the ids it names:\n%s", outbox, plan)
	}

	// The same entries as the substring match over the payload's text (the
	// upper-case id included: Postgres's uuid::text is lower case, and the
	// ids are compared in lower case).
	var missed, extra int
	if err := db.Pool.QueryRow(ctx, `SELECT
			count(*) FILTER (WHERE strpos(lower(payload::text), $1::text) > 0 AND NOT outbox_ids(payload) @> ARRAY[$1::text]),
			count(*) FILTER (WHERE strpos(lower(payload::text), $1::text) = 0 AND outbox_ids(payload) @> ARRAY[$1::text])
		FROM outbox`, account).Scan(&missed, &extra); err != nil {
		t.Fatal(err)
	}
	if missed != 0 || extra != 0 {
		t.Fatalf("the index's ids miss %d entries that name the account and add %d that do not", missed, extra)
	}
	tag, err := db.Pool.Exec(ctx, outbox, account)
	if err != nil {
		t.Fatal(err)
	}
	var left, others int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE strpos(lower(payload::text), $1::text) > 0),
		count(*) FILTER (WHERE key LIKE 'other:%') FROM outbox`, account).Scan(&left, &others); err != nil {
		t.Fatal(err)
	}
	if tag.RowsAffected() < 6 || left != 1 || others != outboxRows {
		t.Fatalf("the erasure deleted %d entries; left %d naming the account (want the undelivered one) and %d of other accounts (want %d)",
			tag.RowsAffected(), left, others, outboxRows)
	}
}
