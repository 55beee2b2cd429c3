package bench

import (
	"context"
	"fmt"
	"time"

	"kudos"
	"kudos/dispatch"
	"kudos/workflows"
)

// RenewalResult are the figures of the renewal-burst benchmark.
type RenewalResult struct {
	Accounts         int           `json:"accounts"`
	LeadSeconds      float64       `json:"lead_seconds"`
	Kudos            ExpiryFigures `json:"kudos"`
	Baseline         ExpiryFigures `json:"baseline"`
	Ratio            float64       `json:"ratio"`
	WorkerPeakRSSMiB float64       `json:"worker_peak_rss_mib"`
	Notes            []string      `json:"notes,omitempty"`
}

// Renewal measures renewals bunched in one minute (issue 39: everyone who
// bought in a launch week renews in the same minutes a year later):
// o.Renewals accounts on a yearly Starter plan with auto-renewal on and a
// saved card, all renewing at one instant, each with its subscription
// workflow started from the read model as the relay starts it; a renewal
// is applied when its RENEWAL invoice is paid (the fake Stripe's
// off-session PaymentIntent succeeds at once), timed from the instant to
// the invoice's paid_at. The baseline is as many TimerWorkflows due at the
// same kind of instant (the trial benchmark's).
func Renewal(ctx context.Context, e *Env, o Options) (*RenewalResult, []Row, error) {
	n := o.Renewals
	res := &RenewalResult{Accounts: n}
	// Starting, and each workflow's first task, must end before the
	// instant, as in the trial's benchmark (25 ms a workflow): under a load
	// average of 12–22 on 2 cores the baseline made 73 starts a second and
	// Kudos's side, which reads each account's row first, 35
	// (docs/performance.md).
	lead := 10*time.Second + time.Duration(n)*25*time.Millisecond
	res.LeadSeconds = lead.Seconds()
	base, err := timerBaseline(ctx, e, "renewal", n, lead)
	if err != nil {
		return res, nil, fmt.Errorf("renewal baseline: %w", err)
	}
	res.Baseline = base

	var members []Member
	_ = ResetPeakRSS(e.WorkerPID)
	prod, err := runExpiry(ctx, e.CPU(), n, lead, expiry{
		prepare: func(ctx context.Context, at time.Time) (err error) {
			if members, err = e.CreateAccounts(ctx, AccountSpec{Prefix: "renewal", N: n, TrialExpiresAt: at}); err != nil {
				return err
			}
			ids := accountIDs(members)
			if _, err = e.DB.Pool.Exec(ctx, `UPDATE subscriptions SET plan = 'STARTER', show_status = 'active', trials_left = 0,
				trial_expires_at = NULL, period_started_at = $2::timestamptz - interval '1 year', plan_renewal_at = $2,
				start_next_period = true WHERE account_id = ANY($1)`, ids, at); err != nil {
				return err
			}
			_, err = e.DB.Pool.Exec(ctx, `INSERT INTO payment_customers (account_id, provider, customer_id)
				SELECT id, 'stripe', 'cus_renewal_' || id FROM unnest($1::uuid[]) id`, ids)
			return err
		},
		start: func(ctx context.Context, i int, _ time.Time) error {
			row, err := dispatch.RowOf(dispatch.SubscriptionStart(members[i].AccountID))
			if err != nil {
				return err
			}
			return e.Dispatcher.Deliver(ctx, row)
		},
		fired: func(ctx context.Context) (c int, err error) {
			err = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM invoices WHERE account_id = ANY($1) AND kind = $2 AND status = 'PAID'`,
				accountIDs(members), kudos.InvoiceRenewal).Scan(&c)
			return c, err
		},
		firedAt: func(ctx context.Context) ([]time.Time, error) {
			return queryTimes(ctx, e, `SELECT paid_at FROM invoices WHERE account_id = ANY($1) AND kind = $2 AND status = 'PAID'`,
				accountIDs(members), kudos.InvoiceRenewal)
		},
		temporal: e.Temporal,
		id:       func(i int) string { return workflows.SubscriptionWorkflowID(members[i].AccountID) },
	})
	peak, _ := PeakRSS(e.WorkerPID)
	res.WorkerPeakRSSMiB = mib(peak)
	if err != nil {
		return res, nil, fmt.Errorf("renewal burst: %w", err)
	}
	res.Kudos = prod
	res.Notes = expiryNotes(base, prod)
	name := fmt.Sprintf("renewal burst (N=%d)", n)
	rate := compared(name, "renewals applied/s (N ÷ max lag) vs timer workflows", "/s", prod.PerSecond, base.PerSecond)
	res.Ratio = *rate.Ratio
	rows := []Row{
		rate.target("ratio ≥ 0.9", res.Ratio >= 0.9),
		perCPU(name, "renewals per CPU-second (neighbours excluded)", prod.CPU, base.CPU),
		compared(name, "lag p50", "s", prod.LagP50, base.LagP50),
		compared(name, "lag p99", "s", prod.LagP99, base.LagP99),
		compared(name, "max lag", "s", prod.LagMax, base.LagMax),
		figure(name, "worker peak RSS", "MiB", res.WorkerPeakRSSMiB),
		compared(name, "CPU/renewal: Temporal server", "ms", prod.CPU.TemporalMs, base.CPU.TemporalMs),
		compared(name, "CPU/renewal: worker", "ms", prod.CPU.WorkerMs, base.CPU.BenchMs),
		compared(name, "CPU/renewal: Postgres", "ms", prod.CPU.PostgresMs, base.CPU.PostgresMs),
	}
	return res, rows, nil
}
