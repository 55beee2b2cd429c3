package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/google/uuid"
)

// LedgerIntake are the figures of the intake's ledger phase (issue 36),
// which follows its checkout phase: every movement at the provider that
// is not a checkout, for the accounts the checkout phase paid, their
// events mixed in one burst. Half of the accounts have a refund made in
// Stripe's dashboard (RefundIntake), the other half a dispute
// (DisputeIntake); one send in five repeats an event as is. Applied is
// Postgres showing what each event books; each must be applied exactly
// once.
type LedgerIntake struct {
	Events         int     `json:"events"`
	Sends          int     `json:"sends"`
	Accept         Summary `json:"accept"`
	AppliedSeconds float64 `json:"applied_seconds"`
	AppliedPerSec  float64 `json:"applied_per_second"`
	// LagP50 and LagP99 are over the refunds' and the disputes' lags
	// together (RefundIntake, DisputeIntake: stored → booked).
	LagP50 float64 `json:"apply_lag_p50_seconds"`
	LagP99 float64 `json:"apply_lag_p99_seconds"`
	// Ratio is AppliedPerSec over the raw signals/s of the same run (the
	// checkout phase's baseline).
	Ratio float64 `json:"ratio"`
	// The outbox relay's part, as in the checkout phase: from an event's
	// commit to its delivery (the workflow accepted it).
	RelayPerSec float64 `json:"relay_deliveries_per_second"`
	RelayLagP50 float64 `json:"relay_lag_p50_seconds"`
	RelayLagP99 float64 `json:"relay_lag_p99_seconds"`
	// CPU is the processes' CPU per ledger event, from the first send
	// until every event was applied and checked (their consequences
	// included).
	CPU      CPUShare       `json:"cpu_per_event"`
	Refunds  *RefundIntake  `json:"refunds"`
	Disputes *DisputeIntake `json:"disputes"`
}

// consequencesWait is how long the ledger check waits for what follows
// the last bookings.
const consequencesWait = 30 * time.Second

// ledgerEvents are signed-to-be Stripe events: their ids and payloads.
type ledgerEvents struct {
	ids      []string
	payloads [][]byte
}

func (l *ledgerEvents) add(id string, payload []byte) {
	l.ids, l.payloads = append(l.ids, id), append(l.payloads, payload)
}

// intakeLedger runs the ledger phase on the accounts the checkout phase
// paid (ids) and returns its figures and rows (under name); signalRate is
// the raw signals handled/s the checkout phase measured beside it.
func intakeLedger(ctx context.Context, e *Env, o Options, ids []uuid.UUID, name string, signalRate float64) (*LedgerIntake, []Row, error) {
	var refundIDs, disputeIDs []uuid.UUID
	for i, id := range ids {
		if i%2 == 0 {
			refundIDs = append(refundIDs, id)
		} else {
			disputeIDs = append(disputeIDs, id)
		}
	}
	res := &LedgerIntake{}
	var err error
	var refundEv, disputeEv ledgerEvents
	if res.Refunds, refundEv, err = refundEvents(e, refundIDs); err != nil {
		return res, nil, err
	}
	if res.Disputes, disputeEv, err = disputeEvents(ctx, e, disputeIDs); err != nil {
		return res, nil, err
	}
	all := ledgerEvents{ids: slices.Concat(refundEv.ids, disputeEv.ids), payloads: slices.Concat(refundEv.payloads, disputeEv.payloads)}
	res.Events = len(all.ids)
	order := make([]int, 0, res.Events*6/5)
	for i := range res.Events {
		order = append(order, i)
	}
	order = append(order, rand.Perm(res.Events)[:res.Events/5]...)
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	res.Sends = len(order)
	settle(ctx, e.TemporalPID)

	t0, cpu0 := time.Now(), e.CPU().Sample()
	accept := RunN(ctx, o.EventConcurrency, len(order), func(ctx context.Context, i int) error {
		return sendWebhook(ctx, e, all.payloads[order[i]])
	})
	res.Accept = accept.Summary()
	if accept.Errors > 0 {
		return res, nil, fmt.Errorf("ledger intake: %d of %d webhooks refused: %s", accept.Errors, len(order), accept.FirstError)
	}
	applied := func(ctx context.Context) (c int, err error) {
		err = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM payment_events WHERE event_id = ANY($1) AND applied_at IS NOT NULL`,
			all.ids).Scan(&c)
		return c, err
	}
	if err := waitFired(ctx, res.Events, t0, 250*time.Millisecond, firedStall, 0, applied); err != nil {
		return res, nil, fmt.Errorf("ledger intake: events not applied: %w", err)
	}
	time.Sleep(time.Second) // a late second booking would show now
	// An event is marked applied with its booking; what a lost dispute
	// does next (the due invoice, the plan's end, the mail) follows in the
	// workflow, and a burst's last ones may still be under way: the check
	// is tried again for a while. Counts only grow, so a second booking
	// still fails it.
	var refundLags, disputeLags []time.Duration
	var lastRefund, lastDispute time.Time
	for deadline := time.Now().Add(consequencesWait); ; time.Sleep(250 * time.Millisecond) {
		if lastRefund, refundLags, err = verifyRefunds(ctx, e, refundIDs, res.Refunds); err == nil {
			lastDispute, disputeLags, err = verifyDisputes(ctx, e, disputeIDs, res.Disputes)
		}
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return res, nil, err
	}
	res.CPU = e.CPU().Sample().Sub(cpu0).Share(res.Events) // the consequences' included
	last := lastRefund
	if lastDispute.After(last) {
		last = lastDispute
	}
	res.AppliedSeconds = last.Sub(t0).Seconds()
	res.AppliedPerSec = float64(res.Events) / res.AppliedSeconds
	lags := slices.Concat(refundLags, disputeLags)
	slices.Sort(lags)
	res.LagP50, res.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()

	var relay IntakeResult
	if err := relayFigures(ctx, e, all.ids, &relay); err != nil {
		return res, nil, err
	}
	res.RelayPerSec, res.RelayLagP50, res.RelayLagP99 = relay.RelayPerSec, relay.RelayLagP50, relay.RelayLagP99

	r, d := res.Refunds, res.Disputes
	name = fmt.Sprintf("%s, then %d refunds and %d disputes (%d events + %d repeats)", name, r.Refunds, d.Disputes, res.Events,
		res.Sends-res.Events)
	rate := compared(name, "ledger events applied/s vs raw signals handled/s", "/s", res.AppliedPerSec, signalRate)
	res.Ratio = *rate.Ratio
	return res, []Row{
		rate,
		figure(name, "ledger webhooks accepted/s", "/s", accept.Rate()),
		figure(name, "apply lag p50 (stored → booked)", "s", res.LagP50),
		figure(name, "apply lag p99", "s", res.LagP99),
		figure(name, "outbox relay: deliveries/s", "/s", res.RelayPerSec),
		figure(name, "outbox relay: lag p50 (stored → accepted)", "s", res.RelayLagP50),
		figure(name, "outbox relay: lag p99", "s", res.RelayLagP99),
		figure(name, "CPU/ledger event: Temporal server", "ms", res.CPU.TemporalMs),
		figure(name, "CPU/ledger event: worker", "ms", res.CPU.WorkerMs),
		figure(name, "CPU/ledger event: Postgres", "ms", res.CPU.PostgresMs),
		figure(name, "CPU/ledger event: api", "ms", res.CPU.APIMs),
		figure(name, "CPU taken by other work on the machine (ledger phase)", "%", res.CPU.OtherPercent()),
		figure(name, "refunds: book lag p50 (first event stored → booked)", "s", r.LagP50),
		figure(name, "refunds: book lag p99", "s", r.LagP99),
		figure(name, "disputes: apply lag p50 (closing event stored → applied)", "s", d.LagP50),
		figure(name, "disputes: apply lag p99", "s", d.LagP99),
		figure(name, "refunds booked exactly once, with one credit note each", "", float64(r.CreditNotes)).
			target(fmt.Sprintf("= %d", r.Refunds), true),
		figure(name, "disputes applied exactly once (won + lost)", "", float64(d.RowsWon+d.RowsLost)).
			target(fmt.Sprintf("= %d", d.Disputes), true),
		figure(name, "lost disputes: credit notes, due invoices, plans ended", "", float64(d.CreditNotes)).
			target(fmt.Sprintf("= %d", d.Lost), true),
	}, nil
}
