package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
)

// TestBillingEventsBackfill migrates a database that has accounts, invoices
// and refunds from before the timeline: each account gets its history, in
// order, with the amounts and invoices of its payments.
func TestBillingEventsBackfill(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	goosed := migratedDownTo(t, db, 12)
	day := func(n int) time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, n) }
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	account := func(plan kudos.Plan, status kudos.ShowStatus, autoRenew bool) uuid.UUID {
		id := uuid.New()
		exec(`INSERT INTO accounts (id, name, created_at) VALUES ($1, 'Acme', $2)`, id, day(0))
		exec(`INSERT INTO subscriptions (account_id, plan, show_status, trial_expires_at, start_next_period, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, plan, status, day(14), autoRenew, day(400))
		return id
	}
	n := 0
	invoice := func(acc uuid.UUID, kind kudos.InvoiceKind, plan kudos.Plan, status kudos.InvoiceStatus, total int64, finalized, paid *time.Time) uuid.UUID {
		id := uuid.New()
		n++
		var number *string
		if status != kudos.InvoiceProcessing {
			s := fmt.Sprintf("KUD-2025-%06d", n)
			number = &s
		}
		exec(`INSERT INTO invoices (id, account_id, number, kind, plan, description, net_amount, vat_amount, vat_rate, total_amount,
			currency, status, created_at, finalized_at, paid_at) VALUES ($1, $2, $3, $4, $5, 'x', $6, 0, 0, $6, 'EUR', $7, $8, $9, $10)`,
			id, acc, number, kind, plan, total, status, day(1), finalized, paid)
		return id
	}
	at := func(n int) *time.Time { d := day(n); return &d }

	expired := account(kudos.PlanTrial, kudos.StatusTrialExpired, false)
	// Bought Pro after the trial ran out, upgraded, renewed, then stopped
	// auto-renewal; a late payment was refunded.
	paying := account(kudos.PlanTeam, kudos.StatusActive, false)
	bought := invoice(paying, kudos.InvoiceSubscription, kudos.PlanPro, kudos.InvoicePaid, 56628, at(20), at(20))
	upgraded := invoice(paying, kudos.InvoiceUpgrade, kudos.PlanTeam, kudos.InvoicePaid, 30000, at(40), at(40))
	waived := invoice(paying, kudos.InvoiceUpgrade, kudos.PlanTeam, kudos.InvoicePaid, 0, at(41), at(41))
	renewed := invoice(paying, kudos.InvoiceRenewal, kudos.PlanTeam, kudos.InvoicePaid, 143748, at(385), at(385))
	invoice(paying, kudos.InvoiceSubscription, kudos.PlanPro, kudos.InvoiceProcessing, 56628, nil, nil)
	exec(`INSERT INTO checkouts (id, account_id, purpose, plan, invoice_id, provider, provider_id, url, status, expires_at, created_at)
		VALUES ('co_late', $1, 'subscription', 'PRO', $2, 'sandbox', 'cs', 'u', 'refunded', $3, $3)`, paying, bought, day(21))
	exec(`INSERT INTO refunds (id, account_id, checkout_id, amount, currency, provider_id, reason, created_at)
		VALUES ('refund:co_late', $1, 'co_late', 56628, 'EUR', 're_1', 'late', $2)`, paying, day(22))
	// Renewal declined (plan expired), then continued with the plan.
	lapsed := account(kudos.PlanStarter, kudos.StatusPlanExpired, true)
	first := invoice(lapsed, kudos.InvoiceSubscription, kudos.PlanStarter, kudos.InvoicePaid, 21780, at(5), at(5))
	declined := invoice(lapsed, kudos.InvoiceRenewal, kudos.PlanStarter, kudos.InvoicePaid, 21780, at(370), at(380))
	due := invoice(lapsed, kudos.InvoicePaymentDue, kudos.PlanStarter, kudos.InvoiceDue, 21780, at(745), nil)

	// A renewal declined, its next attempt scheduled (dunning).
	retrying := account(kudos.PlanPro, kudos.StatusActive, true)
	failed := invoice(retrying, kudos.InvoiceRenewal, kudos.PlanPro, kudos.InvoiceDue, 56628, at(370), nil)
	exec(`UPDATE subscriptions SET payment_retry_at = $2, failed_invoice_id = $3, failed_amount = 56628, failed_currency = 'EUR'
		WHERE account_id = $1`, retrying, day(373), failed)

	if _, err := goosed.Up(ctx); err != nil {
		t.Fatal(err)
	}
	type want struct {
		typ     kudos.BillingEventType
		at      time.Time
		amount  int64 // in EUR; 0: none
		invoice uuid.UUID
	}
	line := func(w want) string {
		return fmt.Sprintf("%s@%s %d %s", w.typ, w.at.UTC().Format(time.DateOnly), w.amount, w.invoice)
	}
	check := func(name string, acc uuid.UUID, wants []want) {
		t.Helper()
		evs, err := db.BillingTimeline(ctx, acc, 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got, exp []string
		for _, e := range evs {
			w := want{typ: e.Type, at: e.At}
			if e.Amount != nil && e.Currency == "EUR" {
				w.amount = *e.Amount
			}
			if e.InvoiceID != nil {
				w.invoice = *e.InvoiceID
			}
			got = append(got, line(w))
		}
		for _, w := range wants {
			exp = append(exp, line(w))
		}
		if !slices.Equal(got, exp) {
			t.Errorf("%s: timeline\n%q\nwant\n%q", name, got, exp)
		}
	}
	check("trial expired", expired, []want{{kudos.EventTrialExpired, day(14), 0, uuid.Nil}, {kudos.EventTrialStarted, day(0), 0, uuid.Nil}})
	check("paying", paying, []want{
		{kudos.EventAutoRenewalStopped, day(400), 0, uuid.Nil},
		{kudos.EventRenewalSucceeded, day(385), 143748, renewed},
		{kudos.EventPlanUpgraded, day(41), 0, waived},
		{kudos.EventPlanUpgraded, day(40), 0, upgraded},
		{kudos.EventPaymentSucceeded, day(40), 30000, upgraded},
		{kudos.EventRefund, day(22), 56628, bought},
		{kudos.EventPlanStarted, day(20), 0, bought},
		{kudos.EventPaymentSucceeded, day(20), 56628, bought},
		{kudos.EventTrialExpired, day(14), 0, uuid.Nil},
		{kudos.EventTrialStarted, day(0), 0, uuid.Nil},
	})
	check("lapsed", lapsed, []want{
		{kudos.EventPlanExpired, day(745), 21780, due},
		{kudos.EventPlanStarted, day(380), 0, declined},
		{kudos.EventPaymentSucceeded, day(380), 21780, declined},
		{kudos.EventPlanExpired, day(370), 21780, declined},
		{kudos.EventRenewalFailed, day(370), 21780, declined},
		{kudos.EventPlanStarted, day(5), 0, first},
		{kudos.EventPaymentSucceeded, day(5), 21780, first},
		{kudos.EventTrialStarted, day(0), 0, uuid.Nil},
	})

	check("retrying", retrying, []want{
		{kudos.EventPaymentRetryScheduled, day(400), 56628, failed},
		{kudos.EventRenewalFailed, day(370), 56628, failed},
		{kudos.EventTrialStarted, day(0), 0, uuid.Nil},
	})

	// Append-only: a row cannot be changed.
	if _, err := db.Pool.Exec(ctx, `UPDATE billing_events SET amount = 1 WHERE account_id = $1`, paying); err == nil {
		t.Fatal("an update of billing_events was allowed")
	}
}

// TestSecondFactorEventsNameTheirFactor: migration 00071 fills the factor
// of the second-factor events written before it from their key; the
// factor, like the rest of an event, never changes afterwards, and only a
// second factor's event may carry one.
func TestSecondFactorEventsNameTheirFactor(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	goosed := migratedDownTo(t, db, 70)
	account := uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO billing_events (account_id, at, type, key, member_email) VALUES
		($1, now(), 'second_factor_added', 'second_factor_added:totp:x:1', 'ann@example.com'),
		($1, now(), 'second_factor_removed', 'second_factor_removed:passkey:y:2', 'ann@example.com'),
		($1, now(), 'member_joined', 'member_joined:z', 'ann@example.com')`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := goosed.Up(ctx); err != nil {
		t.Fatal(err)
	}
	events, err := db.BillingTimeline(ctx, account, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[kudos.BillingEventType]string{}
	for _, e := range events {
		got[e.Type] = e.Factor
	}
	want := map[kudos.BillingEventType]string{kudos.EventSecondFactorAdded: "totp", kudos.EventSecondFactorRemoved: "passkey", kudos.EventMemberJoined: ""}
	if len(got) != len(want) {
		t.Fatalf("factors %v, want %v", got, want)
	}
	for typ, f := range want {
		if got[typ] != f {
			t.Fatalf("factors %v, want %v", got, want)
		}
	}
	for _, change := range []string{
		`UPDATE billing_events SET factor = 'passkey' WHERE account_id = $1 AND type = 'second_factor_added'`,
		`UPDATE billing_events SET factor = NULL WHERE account_id = $1 AND type = 'second_factor_added'`,
		`UPDATE billing_events SET factor = 'totp' WHERE account_id = $1 AND type = 'member_joined'`,
	} {
		if _, err := db.Pool.Exec(ctx, change, account); err == nil {
			t.Errorf("%s was allowed", change)
		}
	}
}
