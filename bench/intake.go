package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v85/webhook"

	"kudos"
	"kudos/workflows"
)

// IntakeResult are the figures of the payment-intake benchmark.
type IntakeResult struct {
	Events         int     `json:"events"`
	Duplicates     int     `json:"duplicates"`
	Senders        int     `json:"senders"`
	SetupSeconds   float64 `json:"setup_seconds"`
	Accept         Summary `json:"accept"`
	AppliedSeconds float64 `json:"applied_seconds"`
	AppliedPerSec  float64 `json:"applied_per_second"`
	LagP50         float64 `json:"apply_lag_p50_seconds"`
	LagP99         float64 `json:"apply_lag_p99_seconds"`
	// The outbox relay's part: from an event's commit to its delivery
	// (the workflow accepted it).
	RelayPerSec float64 `json:"relay_deliveries_per_second"`
	RelayLagP50 float64 `json:"relay_lag_p50_seconds"`
	RelayLagP99 float64 `json:"relay_lag_p99_seconds"`
	Baseline    Summary `json:"baseline_signals"`
	// Handled is when the baseline's workflows were done with its
	// signals (from their histories): its counterpart of applied.
	Handled  SignalsHandled `json:"baseline_handled"`
	Ratio    float64        `json:"ratio"`
	Verified Applied        `json:"verified"`
	// CPU is where the CPU went from the first webhook until the last
	// event was applied, per event; BaselineCPU per raw signal.
	CPU         CPUShare `json:"cpu_per_event"`
	BaselineCPU CPUShare `json:"baseline_cpu_per_signal"`
	// Ledger is the phase that follows (issue 36): refunds and disputes
	// of the paid accounts, their events mixed in one burst.
	Ledger *LedgerIntake `json:"ledger,omitempty"`
}

// Applied is what Postgres shows once the events are in: each unique event
// stored once, delivered once, and its checkout paid once.
type Applied struct {
	StoredEvents     int `json:"stored_events"`
	OutboxEntries    int `json:"outbox_entries"`
	Delivered        int `json:"delivered"`
	DeliveryAttempts int `json:"delivery_attempts"`
	PaidInvoices     int `json:"paid_invoices"`
	PaidCheckouts    int `json:"paid_checkouts"`
	OpenInvoices     int `json:"processing_invoices"`
	StarterAccounts  int `json:"starter_accounts"`
}

// Intake measures the payment-event intake: o.Events accounts each open a
// Starter checkout (the subscription workflow's create update, through
// api.Dispatcher as the api sends it), the customer pays, and Stripe's
// signed checkout.session.completed events arrive at /v1/webhooks/stripe
// from o.EventConcurrency senders, one in five of them a repeat of an
// event already sent. Accepted is the webhook answering 200; applied is
// Postgres showing the account on Starter with its invoice paid. Every
// event must be applied exactly once. The baseline is raw Temporal signals
// to the same workflows at the same concurrency, each naming its account's
// paid checkout (paidCheckouts): sent (against webhooks accepted) and
// handled, the workflow's reaction done (against events applied). The
// ledger phase follows on the paid accounts (intakeLedger: refunds and
// disputes mixed), unless o.IntakeCheckoutsOnly.
func Intake(ctx context.Context, e *Env, o Options) (*IntakeResult, []Row, error) {
	m := o.Events
	res := &IntakeResult{Events: m, Duplicates: m / 4, Senders: o.EventConcurrency}
	if e.Stripe == nil {
		return nil, nil, fmt.Errorf("payment intake: the fake Stripe API is not running (-stripe-addr)")
	}
	members, err := e.CreateAccounts(ctx, AccountSpec{Prefix: "pay", N: m, TrialExpiresAt: time.Now().Add(14 * 24 * time.Hour)})
	if err != nil {
		return nil, nil, err
	}
	setup := RunN(ctx, 8, m, func(ctx context.Context, i int) error {
		var out workflows.CheckoutResponse
		return e.Dispatcher.Update(ctx, members[i].AccountID, workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanStarter}, &out)
	})
	res.SetupSeconds = setup.Elapsed.Seconds()
	if setup.Errors > 0 {
		return res, nil, fmt.Errorf("payment intake: %d of %d checkouts failed to open: %s", setup.Errors, m, setup.FirstError)
	}
	sessions := e.Stripe.SessionsByAccount()
	eventIDs := make([]string, m)
	payloads := make([][]byte, m)
	for i, mem := range members {
		sid, ok := sessions[mem.AccountID.String()]
		if !ok {
			return res, nil, fmt.Errorf("payment intake: no Stripe session for account %s", mem.AccountID)
		}
		eventIDs[i] = fmt.Sprintf("evt_bench_%s_%d", e.RunID, i)
		payloads[i], _ = json.Marshal(map[string]any{"id": eventIDs[i], "object": "event", "api_version": "2025-01-27.acacia",
			"created": time.Now().Unix(), "type": "checkout.session.completed", "livemode": false,
			"data": map[string]any{"object": map[string]any{"id": sid, "object": "checkout.session"}}})
	}
	// One send in five repeats an event, shuffled so that some repeats
	// race their original and some come long after it.
	order := make([]int, 0, m+res.Duplicates)
	for i := range m {
		order = append(order, i)
	}
	for _, i := range rand.Perm(m)[:res.Duplicates] {
		order = append(order, i)
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	e.Stripe.PayAll()
	// Opening the checkouts leaves Temporal busy for a few seconds
	// (visibility, timers): the burst starts on a quiet server, so that
	// its CPU figures are the payments' own.
	settle(ctx, e.TemporalPID)

	t0, cpu0 := time.Now(), e.CPU().Sample()
	accept := RunN(ctx, o.EventConcurrency, len(order), func(ctx context.Context, i int) error {
		return sendWebhook(ctx, e, payloads[order[i]])
	})
	res.Accept = accept.Summary()
	if accept.Errors > 0 {
		return res, nil, fmt.Errorf("payment intake: %d of %d webhooks refused: %s", accept.Errors, len(order), accept.FirstError)
	}
	ids := accountIDs(members)
	if err := waitApplied(ctx, e, ids, m); err != nil {
		return res, nil, err
	}
	res.CPU = e.CPU().Sample().Sub(cpu0).Share(m)
	time.Sleep(time.Second) // a late second application would show now
	if res.Verified, err = verifyApplied(ctx, e, ids, eventIDs); err != nil {
		return res, nil, err
	}
	var last time.Time
	if err := e.DB.Pool.QueryRow(ctx, `SELECT max(updated_at) FROM subscriptions WHERE account_id = ANY($1)`, ids).Scan(&last); err != nil {
		return res, nil, err
	}
	res.AppliedSeconds = last.Sub(t0).Seconds()
	res.AppliedPerSec = float64(m) / res.AppliedSeconds
	lags, err := applyLags(ctx, e, eventIDs)
	if err != nil {
		return res, nil, err
	}
	res.LagP50, res.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()
	if err := relayFigures(ctx, e, eventIDs, res); err != nil {
		return res, nil, err
	}

	// The CPU of the signals counts until the worker has handled them all.
	paid, err := paidCheckouts(ctx, e, ids)
	if err != nil {
		return res, nil, err
	}
	baseStart := time.Now()
	base, baseCPU := Measure(e.CPU(), func() *Load {
		l := RunN(ctx, o.EventConcurrency, len(order), func(ctx context.Context, i int) error {
			acc := members[order[i]].AccountID
			return e.Temporal.SignalWorkflow(ctx, workflows.SubscriptionWorkflowID(acc), "", workflows.SignalPaymentEvent, kudos.PaymentEvent{
				EventID: fmt.Sprintf("raw_%s_%d", e.RunID, i), Provider: "bench", CheckoutID: paid[acc], AccountID: acc,
				Outcome: kudos.PaymentPaid, OccurredAt: time.Now()})
		})
		settle(ctx, e.WorkerPID)
		return l
	})
	res.Baseline, res.BaselineCPU = base.Summary(), baseCPU.Share(base.Ops)
	if base.Errors > 0 {
		return res, nil, fmt.Errorf("payment intake baseline: %d signals failed: %s", base.Errors, base.FirstError)
	}

	wfIDs := make([]string, len(ids))
	for i, id := range ids {
		wfIDs[i] = workflows.SubscriptionWorkflowID(id)
	}
	if res.Handled, err = signalsHandled(ctx, e.Temporal, wfIDs, baseStart); err != nil {
		return res, nil, fmt.Errorf("payment intake baseline: %w", err)
	}

	name := fmt.Sprintf("payment intake (%d events + %d repeats)", m, res.Duplicates)
	applied := compared(name, "events applied/s vs raw signals handled/s", "/s", res.AppliedPerSec, res.Handled.PerSecond)
	res.Ratio = *applied.Ratio
	rows := []Row{
		applied,
		perCPU(name, "events vs signals per CPU-second", res.CPU, res.BaselineCPU),
		compared(name, "webhooks accepted/s vs raw signals sent/s", "/s", accept.Rate(), base.Rate()),
		compared(name, "webhook p99 vs signal p99", "ms", ms(accept.Percentile(0.99)), ms(base.Percentile(0.99))),
		compared(name, "apply lag p50 (stored → read model) vs signal handled", "s", res.LagP50, res.Handled.LagP50),
		compared(name, "apply lag p99 vs signal handled", "s", res.LagP99, res.Handled.LagP99),
		figure(name, "outbox relay: deliveries/s", "/s", res.RelayPerSec),
		figure(name, "outbox relay: lag p99 (stored → accepted)", "s", res.RelayLagP99),
		figure(name, "applied exactly once (of events)", "", float64(res.Verified.PaidInvoices)).target(fmt.Sprintf("= %d", m), true),
		compared(name, "CPU/event vs /signal: Temporal server", "ms", res.CPU.TemporalMs, res.BaselineCPU.TemporalMs),
		compared(name, "CPU/event vs /signal: worker", "ms", res.CPU.WorkerMs, res.BaselineCPU.WorkerMs),
		figure(name, "CPU/event: api", "ms", res.CPU.APIMs),
		figure(name, "CPU/event: Postgres", "ms", res.CPU.PostgresMs),
		compared(name, "CPU taken by other work on the machine", "%", res.CPU.OtherPercent(), res.BaselineCPU.OtherPercent()),
	}
	if o.IntakeCheckoutsOnly {
		return res, rows, nil
	}
	ledger, ledgerRows, err := intakeLedger(ctx, e, o, ids, name, res.Handled.PerSecond)
	res.Ledger = ledger
	rows = append(rows, ledgerRows...)
	return res, rows, err
}

// sendWebhook posts one event, signed now, as Stripe does.
func sendWebhook(ctx context.Context, e *Env, payload []byte) error {
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: e.StripeWebhookSecret})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.BaseURL+"/v1/webhooks/stripe", bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", signed.Header)
	res, err := e.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("POST /v1/webhooks/stripe: %s %s", res.Status, b)
	}
	return nil
}

// paidCheckouts returns each account's paid checkout, for the raw-signal
// baseline. A signal naming it is the least a payment event costs the
// workflow that does not fail: the checkout is read back (one activity),
// found paid already (a repeat), and nothing is applied. A checkout the
// read model does not know would make that activity fail instead (an
// error and an operator's log line per signal), which is no baseline.
func paidCheckouts(ctx context.Context, e *Env, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	rows, err := e.DB.Pool.Query(ctx, `SELECT DISTINCT ON (account_id) account_id, id FROM checkouts
		WHERE account_id = ANY($1) AND status = 'paid' ORDER BY account_id, created_at DESC`, ids)
	if err != nil {
		return nil, err
	}
	paid := map[uuid.UUID]string{}
	var acc uuid.UUID
	var id string
	if _, err := pgx.ForEachRow(rows, []any{&acc, &id}, func() error { paid[acc] = id; return nil }); err != nil {
		return nil, err
	}
	if len(paid) != len(ids) {
		return nil, fmt.Errorf("payment intake baseline: %d of %d accounts have a paid checkout", len(paid), len(ids))
	}
	return paid, nil
}
