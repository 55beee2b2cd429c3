package ops_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/activities"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/ops"
	"kudos/store"
	"kudos/worker"
	"kudos/workflows"
)

// runbookQuery is one row of the runbook's query table.
type runbookQuery struct{ question, query string }

var (
	tableRow    = regexp.MustCompile("(?m)^\\| (.+?) \\| `([^`]+)` \\|$")
	cliQuery    = regexp.MustCompile(`--query '([^']+)'`)
	placeholder = regexp.MustCompile(`<now - ([0-9a-z]+)>`)
)

// runbookQueries reads the queries out of docs/runbook-payments.md.
func runbookQueries(t *testing.T) ([]runbookQuery, []string) {
	raw, err := os.ReadFile("../docs/runbook-payments.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []runbookQuery
	for _, m := range tableRow.FindAllStringSubmatch(string(raw), -1) {
		rows = append(rows, runbookQuery{question: m[1], query: m[2]})
	}
	var cli []string
	for _, m := range cliQuery.FindAllStringSubmatch(string(raw), -1) {
		cli = append(cli, m[1])
	}
	return rows, cli
}

// runbookExpectations: for each question of the runbook, the fixtures its
// query must find (exactly). A question the runbook adds needs its fixtures
// here; one it drops fails too.
var runbookExpectations = map[string][]string{
	"everything about one account (subscription, mails, logos)":                                                     {"trial", "trial-mail", "trial-receipt", "trial-logo"},
	"payments stuck in processing: a checkout open for over an hour":                                                {"stuck-checkout"},
	"renewal charges being retried (dunning)":                                                                       {"retrying", "retrying-long"},
	"renewals still unpaid three days after their renewal date":                                                     {"retrying-long"},
	"customers whose plan expired and who owe an invoice":                                                           {"plan-expired-due"},
	"payments settling at the provider (a SEPA debit: a checkout complete and unpaid, a renewal charge processing)": {"settling-checkout", "settling-renewal"},
	"payments settling for over 14 days (a renewal charge the provider would not cancel)":                           {"settling-renewal"},
	"expired trials":                 {"trial-expired"},
	"Pro customers in good standing": {"pro"},
	"everything the worker runs (then look for a *Pending Activity* with attempts > 1, or a failing *Workflow Task*)": {"trial", "trial-mail", "trial-receipt", "stuck-checkout", "fresh-checkout", "retrying", "retrying-long", "plan-expired-due", "trial-expired", "pro",
		"settling-checkout", "settling-renewal", "disputed"},
	"logo work in progress (its own task queue)": {"trial-logo"},
	"accounts with a dispute (chargeback) open":  {"disputed"},
}

// TestRunbookQueriesFindWhatTheySay runs every query of the runbook against
// the real Temporal server, with subscription, mail and logo workflows in
// the states the runbook names (on a task queue of the test's own), and
// checks that each finds exactly the workflows its question asks for.
func TestRunbookQueriesFindWhatTheySay(t *testing.T) {
	rows, cli := runbookQueries(t)
	if len(rows) == 0 {
		t.Fatal("no query table found in docs/runbook-payments.md")
	}
	for _, q := range cli {
		if !slices.ContainsFunc(rows, func(r runbookQuery) bool { return r.query == q }) {
			t.Errorf("the runbook's command line queries %q, which its table does not have (and so no test runs)", q)
		}
	}
	for question := range runbookExpectations {
		if !slices.ContainsFunc(rows, func(r runbookQuery) bool { return r.question == question }) {
			t.Errorf("the runbook no longer asks %q: update runbookExpectations", question)
		}
	}

	db := testenv.DB(t)
	tc := testenv.Temporal(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	queue := "test-" + uuid.NewString()
	w := worker.New(tc, queue, &activities.Activities{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	now := time.Now().UTC()
	ids := map[string]string{} // workflow id → fixture
	start := func(name string, st kudos.SubscriptionState) {
		id := workflows.SubscriptionWorkflowID(st.AccountID)
		if _, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, workflows.Subscription, st); err != nil {
			t.Fatal(err)
		}
		ids[id] = name
	}
	t.Cleanup(func() {
		for id := range ids {
			_ = tc.TerminateWorkflow(context.Background(), id, "", "test over")
		}
	})
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	base := func() kudos.SubscriptionState {
		return kudos.SubscriptionState{AccountID: uuid.New(), Plan: kudos.PlanTrial, Status: kudos.StatusActive,
			TrialExpiresAt: at(10 * 24 * time.Hour), Period: 365 * 24 * time.Hour, CheckoutTTL: 24 * time.Hour,
			Lifecycle: &kudos.Lifecycle{}} // no reminders or retries due
	}
	checkout := func(openedAgo time.Duration) *kudos.OpenCheckout {
		return &kudos.OpenCheckout{ID: uuid.NewString(), ProviderID: "p", Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanPro,
			InvoiceID: uuid.New(), ExpiresAt: now.Add(24*time.Hour - openedAgo)}
	}

	// A trial account with a user, a mail to them and a logo upload.
	trialID := newAccount(t, db, "runbook@example.com")
	trial := base()
	trial.AccountID = trialID
	start("trial", trial)
	disp := &dispatch.Dispatcher{Temporal: tc, TaskQueue: queue, DB: db}
	mail := kudos.MailRequest{Key: uuid.NewString(), Purpose: kudos.MailPasswordReset, To: "runbook@example.com", Language: "en"}
	logo := dispatch.LogoStart(trialID, "tmp/logos/"+trialID.String()+"/l.png")
	receipt := kudos.MailRequest{Key: uuid.NewString(), Purpose: kudos.MailPaymentReceipt, To: "accounts-payable@example.com",
		Language: "en", Billing: &kudos.MailBilling{AccountID: trialID, Plan: kudos.PlanPro}} // to an address no user has
	for name, entry := range map[string]store.OutboxEntry{"trial-mail": dispatch.Mail(mail), "trial-receipt": dispatch.Mail(receipt),
		"trial-logo": logo} {
		row, err := dispatch.RowOf(entry)
		if err != nil {
			t.Fatal(err)
		}
		if err := disp.Deliver(ctx, row); err != nil {
			t.Fatal(err)
		}
		ids[entry.WorkflowID] = name
	}

	stuck := base()
	stuck.Checkout = checkout(2 * time.Hour) // opened two hours ago (a run rebuilt since)
	start("stuck-checkout", stuck)
	fresh := base()
	fresh.Checkout = checkout(0)
	start("fresh-checkout", fresh)
	due := base()
	due.Plan, due.Status, due.TrialExpiresAt = kudos.PlanPro, kudos.StatusPlanExpired, nil
	due.Due = &kudos.DueInvoice{ID: uuid.New(), Plan: kudos.PlanPro}
	start("plan-expired-due", due)
	expired := base()
	expired.Status, expired.TrialExpiresAt = kudos.StatusTrialExpired, at(-time.Hour)
	start("trial-expired", expired)
	pro := base()
	pro.Plan, pro.AutoRenew, pro.TrialExpiresAt, pro.PeriodStartedAt, pro.RenewalAt = kudos.PlanPro, true, nil, at(-time.Hour), at(300*24*time.Hour)
	start("pro", pro)
	// Starter renewals declined three hours and four days ago, retried later.
	inDunning := func(since time.Duration) kudos.SubscriptionState {
		st := base()
		st.Plan, st.AutoRenew, st.TrialExpiresAt = kudos.PlanStarter, true, nil
		st.PeriodStartedAt, st.RenewalAt = at(-365*24*time.Hour-since), at(-since)
		st.Dunning = &kudos.Dunning{PeriodStart: now.Add(-since), InvoiceID: uuid.New(),
			Amount: kudos.Money{Amount: 21780, Currency: "EUR"}, Attempts: 1, RetryAt: now.Add(48 * time.Hour)}
		return st
	}
	start("retrying", inDunning(3*time.Hour))
	start("retrying-long", inDunning(4*24*time.Hour))
	// A checkout paid by SEPA two days ago, still settling; a renewal
	// charge processing for sixteen days.
	settling := base()
	settling.Checkout = checkout(50 * time.Hour)
	settling.Checkout.Pending, settling.Checkout.PendingSince, settling.Checkout.CheckAt = true, at(-48*time.Hour), at(time.Hour)
	start("settling-checkout", settling)
	processing := base()
	processing.Plan, processing.AutoRenew, processing.TrialExpiresAt = kudos.PlanStarter, true, nil
	processing.PeriodStartedAt, processing.RenewalAt = at(-381*24*time.Hour), at(-16*24*time.Hour)
	processing.PendingRenewal = &kudos.PendingCharge{PeriodStart: now.Add(-16 * 24 * time.Hour), InvoiceID: uuid.New(), ChargeID: "c",
		Since: now.Add(-16 * 24 * time.Hour), CheckAt: now.Add(time.Hour)}
	start("settling-renewal", processing)
	// A Starter customer whose payment is disputed (a run rebuilt with it
	// open): PaymentState none.
	disputed := base()
	disputed.Plan, disputed.AutoRenew, disputed.TrialExpiresAt, disputed.PeriodStartedAt, disputed.RenewalAt = kudos.PlanStarter, true, nil,
		at(-time.Hour), at(300*24*time.Hour)
	disputed.Disputes = []kudos.OpenDispute{{ID: "dp_1", InvoiceID: uuid.New(), Amount: kudos.Money{Amount: 21780, Currency: "EUR"},
		OpenedAt: now}}
	start("disputed", disputed)

	for _, row := range rows {
		want, ok := runbookExpectations[row.question]
		if !ok {
			t.Errorf("the runbook asks %q and no test checks its query %q: add it to runbookExpectations", row.question, row.query)
			continue
		}
		q := strings.ReplaceAll(row.query, "<account id>", trialID.String())
		q = placeholder.ReplaceAllStringFunc(q, func(m string) string {
			d, err := time.ParseDuration(placeholder.FindStringSubmatch(m)[1])
			if err != nil {
				t.Fatalf("%q: %v", m, err)
			}
			return time.Now().UTC().Add(-d).Format(time.RFC3339)
		})
		q = strings.ReplaceAll(q, `TaskQueue = "kudos-logo"`, fmt.Sprintf("TaskQueue = %q", workflows.LogoTaskQueue(queue)))
		q = strings.ReplaceAll(q, `TaskQueue = "kudos"`, fmt.Sprintf("TaskQueue = %q", queue))
		if strings.Contains(q, "<") && !strings.Contains(q, " < ") {
			t.Errorf("%q: a placeholder the test does not fill", row.query)
			continue
		}
		scoped := fmt.Sprintf("(%s) AND TaskQueue IN (%q, %q)", q, queue, workflows.LogoTaskQueue(queue))
		sort.Strings(want)
		var got []string
		deadline := time.Now().Add(20 * time.Second)
		for {
			got = nil
			res, err := tc.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: scoped, PageSize: 100})
			if err != nil {
				t.Fatalf("%q: %v", scoped, err)
			}
			for _, ex := range res.Executions {
				name, ok := ids[ex.Execution.WorkflowId]
				if !ok {
					name = ex.Execution.WorkflowId
				}
				got = append(got, name)
			}
			sort.Strings(got)
			if slices.Equal(got, want) || time.Now().After(deadline) {
				break
			}
			time.Sleep(300 * time.Millisecond) // visibility follows the workflows
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s\n  query %s\n  found %v\n  want  %v", row.question, q, got, want)
		}
	}

	// The gauges the alerts of docs/alerts.md watch count the same.
	reg := prometheus.NewRegistry()
	reg.MustRegister(ops.NewPaymentStateCollector(tc, fmt.Sprintf("TaskQueue = %q", queue), 0))
	want := map[string]float64{`kudos_payment_state_workflows{state="none"}`: 4, `kudos_payment_state_workflows{state="checkout_open"}`: 2,
		`kudos_payment_state_workflows{state="due"}`: 1, `kudos_payment_state_workflows{state="retrying"}`: 2, `kudos_checkouts_stuck`: 1,
		`kudos_payment_state_workflows{state="pending"}`: 2, `kudos_payments_settling_too_long`: 1}
	got := map[string]float64{}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.Metric {
			name := f.GetName()
			for _, l := range m.Label {
				name += fmt.Sprintf("{%s=%q}", l.GetName(), l.GetValue())
			}
			got[name] = m.GetGauge().GetValue()
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("payment state gauges %v, want %v", got, want)
	}
}
