package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
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

// TestErasingTwiceHandsTheSameWork: an erasure whose answer was lost (the
// worker died after the commit) runs again and hands the workflow the same
// customer and files to delete, changing nothing more.
func TestErasingTwiceHandsTheSameWork(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := uuid.New()
	past := time.Now().Add(-time.Minute)
	for _, q := range []string{
		`INSERT INTO accounts (id, name, img_url, deletion_at) VALUES ($1, 'Leaving', 'public/logos/x/y.png', $2)`,
		`INSERT INTO payment_customers (account_id, provider, customer_id) VALUES ($1, 'stripe', 'cus_leaving')`,
	} {
		args := []any{account}
		if strings.Contains(q, "$2") {
			args = append(args, past)
		}
		if _, err := db.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	first, err := db.EraseAccount(ctx, account)
	if err != nil || first.Already || first.CustomerID != "cus_leaving" || len(first.Objects) != 1 {
		t.Fatalf("first erasure %+v, %v", first, err)
	}
	again, err := db.EraseAccount(ctx, account)
	if err != nil || !again.Already || again.CustomerID != first.CustomerID || !slices.Equal(again.Objects, first.Objects) {
		t.Fatalf("second erasure %+v (first %+v), %v", again, first, err)
	}
	var events int
	_ = db.Pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'deletion_completed'`, account).Scan(&events)
	if events != 1 {
		t.Fatalf("%d deletion_completed events", events)
	}
	// A deletion not due (or cancelled) erases nothing.
	other := uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name, deletion_at) VALUES ($1, 'Staying', $2)`, other, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.EraseAccount(ctx, other); kudos.ErrorCode(err) != kudos.EConflict {
		t.Fatalf("erasing a deletion not due: %v", err)
	}
}

// TestAnErasedAccountHasNoReadModel (issue 34): the subscription of an
// erased account is not something a workflow may be started from.
func TestAnErasedAccountHasNoReadModel(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := uuid.New()
	for _, q := range []string{
		`INSERT INTO accounts (id, name) VALUES ($1, 'Erased')`,
		`INSERT INTO subscriptions (account_id, plan, show_status, trial_expires_at, start_next_period, updated_at)
			VALUES ($1, 'TRIAL', 'active', now() + interval '1 day', false, now())`,
	} {
		if _, err := db.Pool.Exec(ctx, q, account); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SubscriptionReadModel(ctx, account); err != nil {
		t.Fatalf("read model of a live account: %v", err)
	}
	if erased, err := db.AccountErased(ctx, account); err != nil || erased {
		t.Fatalf("a live account erased %t (%v)", erased, err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE accounts SET deleted_at = now() WHERE id = $1`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SubscriptionReadModel(ctx, account); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("read model of an erased account: %v", err)
	}
	if erased, err := db.AccountErased(ctx, account); err != nil || !erased {
		t.Fatalf("an erased account erased %t (%v)", erased, err)
	}
}
