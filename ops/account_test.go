package ops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"kudos"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/ops"
	"kudos/store"
	"kudos/workflows"
)

// newAccount signs up a user with a trial account: the sign-up leaves the
// subscription start and the activation mail in the outbox.
func newAccount(t *testing.T, db *store.DB, email string) uuid.UUID {
	t.Helper()
	exp := time.Now().Add(time.Hour)
	key := uuid.NewString()
	_, id, err := db.CreateUser(context.Background(), store.NewUser{
		User:        kudos.User{Email: email, Firstname: "Ops", Lastname: "Test", PreferredLanguage: "en"},
		AccountName: "Ops Test",
		Trial:       kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusActive, TrialExpiresAt: &exp},
		Token: store.NewToken{Hash: []byte(key), Purpose: kudos.TokenActivation, ExpiresAt: exp,
			Mail: dispatch.Mail(kudos.MailRequest{Key: key, Purpose: kudos.MailActivation, To: email, Language: "en"})},
		StartSubscription: dispatch.SubscriptionStart,
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestOpsAccountShowsWhereAPaymentIsStuck: the report of one account, found
// by id or by its owner's e-mail, shows its read model, its workflow's state
// from the query, the activity the workflow is stuck on with its attempts
// and last failure, its undelivered and dead outbox entries (and no other
// account's), and its payment events; text for a person, JSON for scripts.
func TestOpsAccountShowsWhereAPaymentIsStuck(t *testing.T) {
	db := testenv.DB(t)
	tc := testenv.Temporal(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	id := newAccount(t, db, "stuck@example.com")
	other := newAccount(t, db, "other@example.com")
	ev := kudos.PaymentEvent{EventID: "evt_" + uuid.NewString(), Provider: "sandbox", CheckoutID: "chk_1", AccountID: id,
		Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	if _, err := db.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
		t.Fatal(err)
	}
	// The start was delivered; the payment event was parked as a dead
	// letter; the activation mail still waits.
	if _, err := db.Pool.Exec(ctx, `UPDATE outbox SET delivered_at = now() WHERE kind = 'subscription_start'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE outbox SET dead_at = now(), attempts = 50, last_error = 'signal refused (test)'
		WHERE kind = 'payment_event'`); err != nil {
		t.Fatal(err)
	}

	// The subscription workflow's checkout reached its deadline, and the
	// provider, asked how it ended, does not answer.
	queue := "test-" + uuid.NewString()
	w := sdkworker.New(tc, queue, sdkworker.Options{})
	w.RegisterWorkflow(workflows.Subscription)
	w.RegisterActivityWithOptions(func(context.Context, workflows.ExpireCheckoutInput) (kudos.PaymentOutcome, error) {
		return "", errors.New("the provider is down (test)")
	}, activity.RegisterOptions{Name: workflows.ActivityExpireCheckout})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	trialEnds := time.Now().Add(10 * 24 * time.Hour)
	st := kudos.SubscriptionState{AccountID: id, Plan: kudos.PlanTrial, Status: kudos.StatusActive, TrialExpiresAt: &trialEnds,
		Period: 365 * 24 * time.Hour, CheckoutTTL: 24 * time.Hour, Lifecycle: &kudos.Lifecycle{},
		Checkout: &kudos.OpenCheckout{ID: "chk_1", ProviderID: "cs_1", Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanPro,
			InvoiceID: uuid.New(), ExpiresAt: time.Now().Add(-time.Minute)}}
	wfID := workflows.SubscriptionWorkflowID(id)
	if _, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: wfID, TaskQueue: queue}, workflows.Subscription, st); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.TerminateWorkflow(context.Background(), wfID, "", "test over") })

	in := &ops.Inspector{Store: db, Temporal: tc, Timeline: ops.StoreTimeline(db)}
	ids, err := in.Resolve(ctx, "Stuck@Example.com")
	if err != nil || len(ids) != 1 || ids[0] != id {
		t.Fatalf("resolve by e-mail: %v %v", ids, err)
	}
	var r *ops.Report
	for {
		if r, err = in.Account(ctx, id); err != nil {
			t.Fatal(err)
		}
		if sw := r.Subscription; sw != nil && len(sw.PendingActivities) > 0 && sw.PendingActivities[0].Attempt >= 2 && len(r.Workflows) > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no failing activity with attempts in the report: %+v", r)
		}
		time.Sleep(500 * time.Millisecond)
	}
	pa := r.Subscription.PendingActivities[0]
	if pa.Type != workflows.ActivityExpireCheckout || !strings.Contains(pa.LastFailure, "the provider is down (test)") {
		t.Errorf("pending activity %+v", pa)
	}
	if r.State == nil || r.State.Checkout == nil || r.State.Checkout.ID != "chk_1" || r.State.AccountID != id {
		t.Errorf("queried state %+v", r.State)
	}
	if r.Subscription.PaymentState != workflows.PaymentCheckoutOpen || r.Subscription.PaymentStateSince == nil {
		t.Errorf("search attributes: %q since %v", r.Subscription.PaymentState, r.Subscription.PaymentStateSince)
	}
	if s := r.Account.Subscription; s == nil || s.Plan != kudos.PlanTrial {
		t.Errorf("read model %+v", s)
	}
	if len(r.Account.Members) != 1 || r.Account.Members[0].Email != "stuck@example.com" || r.Account.Members[0].Role != "owner" {
		t.Errorf("members %+v", r.Account.Members)
	}
	kinds := map[string]bool{}
	for _, e := range r.Account.Outbox {
		kinds[e.Kind] = true
		if e.Kind == dispatch.KindPaymentEvent && (e.DeadAt == nil || e.LastError == nil || e.Attempts != 50) {
			t.Errorf("dead letter %+v", e)
		}
		if strings.Contains(e.Key, other.String()) || strings.Contains(e.WorkflowID, other.String()) {
			t.Errorf("another account's entry: %+v", e)
		}
	}
	if len(r.Account.Outbox) != 2 || !kinds[dispatch.KindMail] || !kinds[dispatch.KindPaymentEvent] {
		t.Errorf("outbox: %+v, want the waiting activation mail and the dead payment event", r.Account.Outbox)
	}
	if len(r.Account.Events) != 1 || r.Account.Events[0].EventID != ev.EventID {
		t.Errorf("payment events %+v", r.Account.Events)
	}
	if len(r.Timeline) == 0 || r.Timeline[len(r.Timeline)-1].Type != string(kudos.EventTrialStarted) {
		t.Errorf("the billing timeline from Postgres: %+v", r.Timeline)
	}

	var text bytes.Buffer
	if err := ops.WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{id.String(), "stuck@example.com", "pending activity ExpireCheckout", "the provider is down (test)",
		"open checkout chk_1 (provider cs_1", "DEAD since", "signal refused (test)", ev.EventID, "PaymentState checkout_open since"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Account struct {
			ID     string `json:"id"`
			Outbox []any  `json:"outbox"`
		} `json:"account"`
		Subscription struct {
			PendingActivities []struct {
				Type        string `json:"type"`
				Attempt     int    `json:"attempt"`
				LastFailure string `json:"last_failure"`
			} `json:"pending_activities"`
		} `json:"subscription_workflow"`
		State struct{ Status string } `json:"subscription_state"`
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Account.ID != id.String() || len(back.Account.Outbox) != 2 || back.State.Status != "active" ||
		len(back.Subscription.PendingActivities) != 1 || back.Subscription.PendingActivities[0].Attempt < 2 {
		t.Errorf("JSON report: %s", raw)
	}
}

// TestOpsAccountWithTheTimelineAndWithoutTemporal: the timeline hook's
// events are shown; a report for an account without any workflow says so
// instead of failing; unknown accounts and addresses are named.
func TestOpsAccountWithTheTimelineAndWithoutTemporal(t *testing.T) {
	db := testenv.DB(t)
	tc := testenv.Temporal(t)
	ctx := context.Background()
	id := newAccount(t, db, "quiet@example.com")
	amount := int64(46800)
	inv := uuid.New()
	in := &ops.Inspector{Store: db, Temporal: tc, Timeline: func(_ context.Context, got uuid.UUID, limit int) ([]ops.TimelineEntry, error) {
		if got != id || limit <= 0 {
			t.Errorf("timeline asked for %s, %d", got, limit)
		}
		return []ops.TimelineEntry{{At: time.Now(), Type: "payment_succeeded", Plan: "PRO", Amount: &amount, Currency: "EUR", InvoiceID: &inv}}, nil
	}}
	r, err := in.Account(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Subscription != nil || r.State != nil || !strings.Contains(strings.Join(r.Unavailable, "\n"), "no subscription workflow runs") {
		t.Errorf("an account without a workflow: %+v %q", r.Subscription, r.Unavailable)
	}
	var text bytes.Buffer
	if err := ops.WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "payment_succeeded") || !strings.Contains(text.String(), "468.00 EUR") || !strings.Contains(text.String(), inv.String()) {
		t.Errorf("timeline not shown:\n%s", text.String())
	}
	if _, err := in.Account(ctx, uuid.New()); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Errorf("unknown account: %v", err)
	}
	if _, err := in.Resolve(ctx, "nobody@example.com"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Errorf("unknown e-mail: %v", err)
	}
	if _, err := in.Resolve(ctx, "not-an-id"); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("neither id nor e-mail: %v", err)
	}
}
