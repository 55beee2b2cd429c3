package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"kudos/internal/testenv"
)

// TestBillingEventsStayAppendOnly: the only change an event takes is the
// erasure of an e-mail address (a deleted account or user, issue 28); its
// type, time, amount or anything else cannot change, nor can an address be
// written into it.
func TestBillingEventsStayAppendOnly(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO billing_events (account_id, at, type, key, member_email, role, actor_email, amount, currency)
		VALUES ($1, now(), 'member_joined', 'k1', 'ann@example.com', 'member', 'bob@example.com', NULL, NULL)`, account); err != nil {
		t.Fatal(err)
	}
	for _, change := range []string{
		`UPDATE billing_events SET type = 'member_left' WHERE account_id = $1`,
		`UPDATE billing_events SET at = at - interval '1 day' WHERE account_id = $1`,
		`UPDATE billing_events SET member_email = 'eve@example.com' WHERE account_id = $1`,
		`UPDATE billing_events SET member_email = NULL, actor_email = NULL, role = 'owner' WHERE account_id = $1`,
	} {
		if _, err := db.Pool.Exec(ctx, change, account); err == nil {
			t.Errorf("%s was allowed", change)
		}
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE billing_events SET member_email = NULL WHERE account_id = $1`, account); err != nil {
		t.Fatalf("erasing one address: %v", err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE billing_events SET actor_email = NULL WHERE account_id = $1`, account); err != nil {
		t.Fatalf("erasing the other: %v", err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE billing_events SET member_email = 'eve@example.com' WHERE account_id = $1`, account); err == nil {
		t.Error("an address was written into an erased event")
	}
}
