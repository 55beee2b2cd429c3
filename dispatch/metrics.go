package dispatch

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"kudos/store"
)

// OutboxStatsReader is the part of the store the outbox metrics read.
type OutboxStatsReader interface {
	OutboxStats(ctx context.Context) (store.OutboxStats, error)
	// RefusedRefunds counts refunds the provider refused for good.
	RefusedRefunds(ctx context.Context) (int, error)
	// DeferredRefunds counts refunds the provider refused for now, and
	// those overdue (nothing tried them in time).
	DeferredRefunds(ctx context.Context, now time.Time) (deferred, overdue int, err error)
	// FailedRefunds counts the refunds that failed at the provider after
	// they were made and that no refund made again has repaid: money the
	// customers are owed.
	FailedRefunds(ctx context.Context) (int, error)
	// UncreditedRefunds counts the refunds that paid out more than their
	// invoice had left to credit: money out with no credit note.
	UncreditedRefunds(ctx context.Context) (int, error)
	// OpenDisputes counts the disputes (chargebacks) still open.
	OpenDisputes(ctx context.Context) (int, error)
	// LedgerDrift counts the differences with the payment provider's
	// ledger the newest provider reconciliation could not repair.
	LedgerDrift(ctx context.Context) (int, error)
	// LedgerReconciledAt is when the provider reconciliation last
	// finished (nil before any run).
	LedgerReconciledAt(ctx context.Context) (*time.Time, error)
	// SweepFinishedAt is when sweep name last walked its last page (nil
	// before it ever did).
	SweepFinishedAt(ctx context.Context, name string) (*time.Time, error)
}

// outboxCollector exports the outbox's state at each scrape: what waits,
// what was parked, and how long the oldest entry has waited (the alerts of
// docs/runbook-payments.md); and the money that waits on an operator: the
// refunds the provider refused, for good or for now; those that failed or
// paid out beyond what their invoice had left to credit; the disputes open; and
// the differences with the provider's ledger the provider reconciliation left.
type outboxCollector struct {
	db                                                OutboxStatsReader
	pending, dead, oldest, refused, deferred, overdue *prometheus.Desc
	disputes, drift, failed, uncredited, reconciled   *prometheus.Desc
	swept                                             *prometheus.Desc
}

// NewOutboxCollector returns the Prometheus collector of the outbox gauges.
func NewOutboxCollector(db OutboxStatsReader) prometheus.Collector {
	return &outboxCollector{db: db,
		pending:  prometheus.NewDesc("kudos_outbox_pending", "Outbox entries not yet delivered to Temporal.", nil, nil),
		dead:     prometheus.NewDesc("kudos_outbox_dead_letters", "Outbox entries parked after failing for good.", nil, nil),
		oldest:   prometheus.NewDesc("kudos_outbox_oldest_pending_seconds", "Age of the oldest undelivered outbox entry.", nil, nil),
		refused:  prometheus.NewDesc("kudos_refunds_refused", "Refunds the payment provider refused for good, not made since (an operator refunds by hand).", nil, nil),
		deferred: prometheus.NewDesc("kudos_refunds_deferred", "Refunds the payment provider refused for now (balance short), waiting for their next try.", nil, nil),
		overdue: prometheus.NewDesc("kudos_refunds_deferred_overdue",
			"Deferred refunds past their next try by over an hour: neither a workflow nor the reconciliation tried them.", nil, nil),
		failed: prometheus.NewDesc("kudos_refunds_failed",
			"Refunds that failed at the payment provider after they were made, not refunded again since: the customer is owed the money (kudos ops refund --failed).", nil, nil),
		uncredited: prometheus.NewDesc("kudos_refunds_uncredited",
			"Refunds ever booked that paid out more than their invoice had left to credit (a dashboard refund after a returned debit was paid again): money out with no credit note; its alert fires when it grows.", nil, nil),
		disputes: prometheus.NewDesc("kudos_disputes_open",
			"Disputes (chargebacks) open at the payment provider: evidence to give before its due date.", nil, nil),
		drift: prometheus.NewDesc("kudos_ledger_drift",
			"Differences between Kudos's ledger and the payment provider's that the newest provider reconciliation could not repair (kudos ops reconcile-provider).", nil, nil),
		reconciled: prometheus.NewDesc("kudos_ledger_reconciled_age_seconds",
			"Seconds since the provider reconciliation last finished (absent before any run): one failing every day never finishes, and kudos_ledger_drift keeps its last value.", nil, nil),
		swept: prometheus.NewDesc("kudos_subscriptions_reconciled_age_seconds",
			"Seconds since the sweep that restarts lost subscription workflows last walked its last page (absent before any sweep): one failing at every beat never finishes.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.pending
	ch <- c.dead
	ch <- c.oldest
	ch <- c.refused
	ch <- c.deferred
	ch <- c.overdue
	ch <- c.disputes
	ch <- c.drift
	ch <- c.failed
	ch <- c.uncredited
	ch <- c.reconciled
	ch <- c.swept
}

// Collect implements prometheus.Collector; a database that does not answer
// in time leaves the gauges out of this scrape.
func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s, err := c.db.OutboxStats(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(s.Pending))
	ch <- prometheus.MustNewConstMetric(c.dead, prometheus.GaugeValue, float64(s.Dead))
	ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, s.OldestPending.Seconds())
	if n, err := c.db.RefusedRefunds(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(c.refused, prometheus.GaugeValue, float64(n))
	}
	if n, overdue, err := c.db.DeferredRefunds(ctx, time.Now()); err == nil {
		ch <- prometheus.MustNewConstMetric(c.deferred, prometheus.GaugeValue, float64(n))
		ch <- prometheus.MustNewConstMetric(c.overdue, prometheus.GaugeValue, float64(overdue))
	}
	if n, err := c.db.FailedRefunds(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(c.failed, prometheus.GaugeValue, float64(n))
	}
	if n, err := c.db.UncreditedRefunds(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(c.uncredited, prometheus.GaugeValue, float64(n))
	}
	if n, err := c.db.OpenDisputes(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(c.disputes, prometheus.GaugeValue, float64(n))
	}
	if n, err := c.db.LedgerDrift(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(c.drift, prometheus.GaugeValue, float64(n))
	}
	if at, err := c.db.LedgerReconciledAt(ctx); err == nil && at != nil {
		ch <- prometheus.MustNewConstMetric(c.reconciled, prometheus.GaugeValue, time.Since(*at).Seconds())
	}
	if at, err := c.db.SweepFinishedAt(ctx, store.SweepSubscriptions); err == nil && at != nil {
		ch <- prometheus.MustNewConstMetric(c.swept, prometheus.GaugeValue, time.Since(*at).Seconds())
	}
}
