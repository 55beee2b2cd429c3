package activities_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/activities"
	"kudos/workflows"
)

// expiringProvider is timelineProvider that also closes checkouts,
// remembering which.
type expiringProvider struct {
	*timelineProvider
	expired []string
}

func (p *expiringProvider) ExpireCheckout(_ context.Context, providerID string) (kudos.PaymentOutcome, error) {
	p.expired = append(p.expired, providerID)
	return kudos.PaymentExpired, nil
}

// TestACheckoutForAPlanTheTeamOutgrewIsClosed (issue 34, item 7): someone
// joined between the api's seat check and the recording of a Starter
// checkout: OpenCheckout answers SeatLimit (not retried; the api's 409
// seat_limit), the page it opened is closed at the provider, and neither
// the checkout nor its invoice is recorded.
func TestACheckoutForAPlanTheTeamOutgrewIsClosed(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	pay := &expiringProvider{timelineProvider: e.pay}
	env := activityEnv(&activities.Activities{Store: e.db, Payments: pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now})
	member := uuid.New()
	if _, err := e.db.Pool.Exec(ctx, `INSERT INTO users (id, email, firstname, lastname) VALUES ($1, $2, 'B', 'C')`,
		member, member.String()+"@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Pool.Exec(ctx, `INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'member')`,
		e.account, member); err != nil {
		t.Fatal(err)
	}
	_, err := env.ExecuteActivity(workflows.ActivityOpenCheckout, workflows.OpenCheckoutInput{AccountID: e.account, CheckoutID: "co_small",
		Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanStarter, InvoiceID: uuid.New()})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != workflows.ErrTypeSeatLimit || !app.NonRetryable() {
		t.Fatalf("OpenCheckout for a team of two on Starter: %v, want a SeatLimit refusal", err)
	}
	if len(pay.expired) != 1 || pay.expired[0] != "cs_co_small" {
		t.Fatalf("pages closed at the provider: %v", pay.expired)
	}
	var rows int
	if err := e.db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM checkouts WHERE account_id = $1)
		+ (SELECT count(*) FROM invoices WHERE account_id = $1)`, e.account).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d rows recorded (%v)", rows, err)
	}
}
